# bash completion for landlock-run. Installed as
# share/bash-completion/completions/landlock-run by make install and the .deb.
# tests/completion.bats checks that it offers exactly the options of `landlock-run --help`.

_landlock_run() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i
	# after --, it is the command's line: complete a command name, then its own arguments
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -- ]] || continue
		if declare -F _command_offset >/dev/null; then
			_command_offset $((i + 1))
		elif ((COMP_CWORD == i + 1)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return
	done
	# @FILE: arguments kept in a file; bash's COMP_WORDBREAKS makes "@" a word of its own
	if [[ $cur == @* || $prev == @ ]]; then
		local at=
		[[ $cur == @* ]] && at=@
		compopt -o filenames
		mapfile -t COMPREPLY < <(compgen -P "$at" -f -- "${cur#@}")
		return
	fi
	case $prev in
	--ro | --rw | --ro-try | --rw-try | --hide | --unix | --explain-json | --learn)
		compopt -o filenames
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return ;;
	--tcp-bind | --tcp-connect | --udp-bind | --udp-connect)
		mapfile -t COMPREPLY < <(compgen -W 'none' -- "$cur")
		return ;;
	--scope | --allow-syscalls) # a comma list: complete the item after the last comma
		local words='signal abstract-unix'
		[[ $prev == --allow-syscalls ]] && words='io_uring userns keyring bpf perf userfaultfd metadata'
		compopt -o nospace
		mapfile -t COMPREPLY < <(compgen -P "${cur%"${cur##*,}"}" -W "$words" -- "${cur##*,}")
		return ;;
	--abi | --status-fd) # a number
		COMPREPLY=()
		return ;;
	--setenv | --unsetenv) # a variable name (--setenv then =VALUE)
		mapfile -t COMPREPLY < <(compgen -v -- "$cur")
		[[ $prev == --setenv ]] && compopt -o nospace && COMPREPLY=("${COMPREPLY[@]/%/=}")
		return ;;
	esac
	local options='--ro --rw --ro-try --rw-try --hide --no-symlinks --unix --tcp-bind --tcp-connect
		--no-tcp --udp-bind --udp-connect --no-udp --no-network --no-unix --scope --allow-syscalls
		--log-subprocesses --no-log
		--no-log-nested --explain --explain-json --learn --keep-caps --new-session
		--kill-tree --private-tmp --die-with-parent --close-fds --clearenv --setenv --unsetenv --abi --strict --probe
		--json -v --verbose --status-fd -h --help -V --version --'
	mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
}
complete -F _landlock_run landlock-run
