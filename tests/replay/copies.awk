# copies.awk: N time-shifted copies of a perf script text, back to back, as
# bench/trace-gen --copies makes them (each copy moved by the span + 1 ms;
# lines without a time in the first copy only): awk -v n=N -f copies.awk FILE
{
	line[NR] = $0
	if (match($0, /[0-9]+\.[0-9]+:/)) {
		split(substr($0, RSTART, RLENGTH - 1), p, ".")
		ns = p[1] * 1e9 + p[2] * 10 ^ (9 - length(p[2]))
		if (lo == "" || ns < lo)
			lo = ns
		if (ns > hi)
			hi = ns
	}
}
END {
	span = hi - lo + 1e6
	for (k = 0; k < n; k++) {
		for (i = 1; i <= NR; i++) {
			s = line[i]
			if (!match(s, /[0-9]+\.[0-9]+:/)) {
				if (k == 0)
					print s
				continue
			}
			split(substr(s, RSTART, RLENGTH - 1), p, ".")
			d = length(p[2])
			t = p[1] * 1e9 + p[2] * 10 ^ (9 - d) + k * span
			sec = int(t / 1e9)
			printf "%s%d.%0" d "d:%s\n", substr(s, 1, RSTART - 1), sec,
			    int((t - sec * 1e9) / 10 ^ (9 - d)),
			    substr(s, RSTART + RLENGTH)
		}
	}
}
