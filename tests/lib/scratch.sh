# scratch.sh: source it from the top of the tree, then
#	sr_scratch DIR
# makes DIR a copy of the tree: the files git knows (committed or not,
# with their times; outside a git checkout, every file but the builds),
# and the normal build's objects (build/, when there), so that a build
# in DIR with `make BUILD=build SAN=0` compiles only what is new or
# changed there.  Used by tests/mutate.sh and tests/harness/recipes.sh.
sr_scratch() {
	mkdir -p "$1" || return 1
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard | while IFS= read -r f; do
			[ -e "$f" ] && printf '%s\n' "$f"
		done | tar -cf - -T - | tar -xf - -C "$1" || return 1
	else
		tar -cf - --exclude='./build*' --exclude=./schedreplay . |
			tar -xf - -C "$1" || return 1
	fi
	[ ! -d build ] || cp -a build "$1/"
}
