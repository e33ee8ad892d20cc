# bash completion for wultfw                               -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Sub-commands, options and plugin names come from wultfw itself ('wultfw
# help', 'wultfw [COMMAND] --help', 'wultfw list-plugins'), so this file
# never holds a second list of them.

# Sub-commands: the indented names under "Commands:" in 'wultfw help'.
_wultfw_commands()
{
    "$1" help 2>/dev/null | awk '/^Commands:/ { on = 1; next }
        on && /^  [a-z]/ { print $1 }'
}

# Plugin names: the indented first words of 'wultfw list-plugins'.
_wultfw_plugins()
{
    "$1" list-plugins 2>/dev/null | awk '/^  [a-z0-9_]/ { print $1 }'
}

# Hosts for -H: Host lines of ~/.ssh/config without wildcards, and the
# groups and hosts of the inventory an earlier -i names (wultfw reads it).
_wultfw_hosts()
{
    local cmd=$1 inv=$2
    if [[ -r ~/.ssh/config ]]; then
        awk 'tolower($1) == "host" {
            for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) print $i }' ~/.ssh/config
    fi
    [[ -n $inv ]] && "$cmd" -i "$inv" --complete-hosts 2>/dev/null
}

_wultfw()
{
    local cur prev words cword split
    _init_completion -s || return

    local cmd=${words[0]} sub= i
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            case ${words[i - 1]} in
                # the run's options that take a value (wultfw --help)
                -c | --config | -o | --outdir | --only | --sysfs-root | --cpu | --ldist | --datapoints | --time | \
                    -H | --host | -i | --inventory | -U | --user | -K | --key | --ssh-config | --jobs | --sut-wultfw | --sut-dir) continue ;;
            esac
            sub=${words[i]}
            break
        fi
    done

    case $prev in
        -c | --config)
            _filedir cfg
            return
            ;;
        -o | --output | --outdir | --sysfs-root | --kdir | --src | --destdir | --state-dir)
            [[ $sub == convert && ($prev == -o || $prev == --output) ]] && { _filedir; return; }
            _filedir -d
            return
            ;;
        --pci-dump | -i | --inventory)
            _filedir
            return
            ;;
        -H | --host)
            # after -i FILE: its groups and hosts too
            local inv=
            for ((i = 1; i < cword - 1; i++)); do
                [[ ${words[i]} == -i || ${words[i]} == --inventory ]] && inv=${words[i + 1]}
            done
            inv=${inv/#\~/$HOME}
            if [[ $cur == @* ]]; then
                # -H @FILE: one host a line
                COMPREPLY=($(compgen -f -- "${cur#@}"))
                COMPREPLY=("${COMPREPLY[@]/#/@}")
                return
            fi
            # a list (a,b) or a pattern (g:!h): its last name
            local pre=
            [[ $cur == *[,:\&!]* ]] && pre=${cur%"${cur##*[,:&!]}"}
            COMPREPLY=($(compgen -P "$pre" -W "$(_wultfw_hosts "$cmd" "$inv")" -- "${cur#"$pre"}"))
            return
            ;;
        -t | --to)
            COMPREPLY=($(compgen -W 'csv binary' -- "$cur"))
            return
            ;;
        -F | --format)
            COMPREPLY=($(compgen -W 'table markdown csv json' -- "$cur"))
            return
            ;;
        --cpu)
            # a CPU of this machine, or a word for several
            local cpus=$(ls /sys/devices/system/cpu 2>/dev/null | sed -n 's/^cpu\([0-9][0-9]*\)$/\1/p')
            COMPREPLY=($(compgen -W "all isolated $cpus" -- "$cur"))
            return
            ;;
        --hist | --chist)
            # report: metric names or patterns (of the results), or none
            COMPREPLY=($(compgen -W 'none' -- "$cur"))
            return
            ;;
        --mem-limit)
            # calc: a size, or none
            COMPREPLY=($(compgen -W 'none 256M 1G' -- "$cur"))
            return
            ;;
        # free text: nothing to offer (not file names)
        -g | --group-by | --include | --exclude | --reportids | --title | --descr | --explain-top | \
            --xaxes | --yaxes | --only | -m | --metrics | -f | --funcs | -e | --exact-limit | -j | --jobs | -M | --exact-memory | --ldist | --datapoints | --time)
            return
            ;;
    esac
    $split && return

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_parse_help "$cmd" "$sub --help" | sort -u)" -- "$cur"))
        [[ ${COMPREPLY-} == *= ]] && compopt -o nospace
        return
    fi

    case $sub in
        '')
            COMPREPLY=($(compgen -W "$(_wultfw_commands "$cmd")" -- "$cur"))
            ;;
        help)
            [[ $prev == help ]] &&
                COMPREPLY=($(compgen -W "$(_wultfw_plugins "$cmd")" -- "$cur"))
            ;;
        calc | report | filter | convert)
            # result directories and the datapoints files inside them
            _filedir '@(csv|wfb)'
            ;;
        restore)
            # options only (-n, --state-dir DIR): no other arguments
            ;;
    esac
} &&
    complete -F _wultfw wultfw

# ex: filetype=sh
