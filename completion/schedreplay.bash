# bash completion for schedreplay: its commands, each command's options,
# and their values (policy names from `schedreplay policies`, the choices
# of an option, files and directories).  The commands and options come
# from the binary itself (`schedreplay help --complete [COMMAND]`, made
# from the option tables), so they follow whichever schedreplay is run.
# Installed as share/bash-completion/completions/schedreplay; or source it.

_schedreplay_policies()
{
	# a policy per line; its notes are the indented lines under it
	"$1" policies 2>/dev/null | while IFS= read -r line; do
		case $line in ''|' '*) continue ;; esac
		printf '%s\n' "${line%% *}"
	done
	echo observed
}

_schedreplay()
{
	local sr=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev= cmd= i name kind arg desc spec
	local -a words=()

	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --opt=value: bash splits it at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		cur= prev=${COMP_WORDS[COMP_CWORD - 1]}
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	COMPREPLY=()
	if [[ -z $cmd ]]; then
		while IFS=$'\t' read -r name _; do
			words+=("$name")
		done < <("$sr" help --complete 2>/dev/null)
		words+=(help --version)
		COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
		return 0
	fi
	if [[ $cmd == help ]]; then
		while IFS=$'\t' read -r name _; do
			words+=("$name")
		done < <("$sr" help --complete 2>/dev/null)
		COMPREPLY=($(compgen -W "${words[*]} --man --complete" -- "$cur"))
		return 0
	fi
	spec=$("$sr" help --complete "$cmd" 2>/dev/null) || return 0
	# the value of the option before the cursor
	while IFS=$'\t' read -r name kind arg desc; do
		[[ $name == "$prev" && $kind != flag && $name != operand ]] ||
			continue
		case $kind:$arg in
		choice:*) COMPREPLY=($(compgen -W "$arg" -- "$cur")) ;;
		*:P) COMPREPLY=($(compgen -W "$(_schedreplay_policies "$sr")" \
			-- "$cur")) ;;
		*:DIR) compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur")) ;;
		*:FILE | *:PATH) compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac
		return 0
	done <<<"$spec"
	if [[ $cur == -* ]]; then
		while IFS=$'\t' read -r name kind arg desc; do
			[[ $name == operand ]] || words+=("$name")
		done <<<"$spec"
		COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
		return 0
	fi
	# an operand: a trace file
	if grep -q '^operand' <<<"$spec"; then
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}

complete -F _schedreplay schedreplay
