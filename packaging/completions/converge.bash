# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
# bash completion for converge: commands, options, output formats, kinds, and the KIND/NAMEs of
# the workspace (through `converge get -o name`).

_converge_workspace_args()
{
    local i
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        case "${COMP_WORDS[i]}" in
        --workspace) printf '%s\n' --workspace "${COMP_WORDS[i + 1]}" ;;
        --workspace=*) printf '%s\n' "${COMP_WORDS[i]}" ;;
        esac
    done
}

_converge_resources()
{
    local -a ws
    mapfile -t ws < <(_converge_workspace_args)
    "${COMP_WORDS[0]}" get -o name "${ws[@]}" 2>/dev/null
}

_converge()
{
    local cur prev command i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD - 1]}"
    local commands="apply diff get describe explain delete claim reconcile refresh events export run help"
    local kinds="storageaccounts blobcontainers blobs queues tables awsaccounts dynamodbtables sqsqueues snstopics cloudwatchloggroups ecrrepositories kinesisstreams eventbridgeeventbuses ssmparameters"
    local global="--workspace --quiet --verbose --help"

    command=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
        --workspace) ((i++)) ;;
        -*) ;;
        *)
            command="${COMP_WORDS[i]}"
            break
            ;;
        esac
    done

    case "$prev" in
    --workspace | -f | --filename)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    -o | --output)
        case "$command" in
        get) COMPREPLY=($(compgen -W "table wide yaml json name" -- "$cur")) ;;
        events) COMPREPLY=($(compgen -W "table wide json jsonl" -- "$cur")) ;;
        export) COMPREPLY=($(compgen -W "yaml json" -- "$cur")) ;;
        esac
        return
        ;;
    --type)
        COMPREPLY=($(compgen -W "Warning Normal" -- "$cur"))
        return
        ;;
    --for)
        COMPREPLY=($(compgen -W "aso ack" -- "$cur"))
        return
        ;;
    --sku)
        COMPREPLY=($(compgen -W "Standard_LRS Standard_GRS Standard_RAGRS Standard_ZRS \
            Standard_GZRS Standard_RAGZRS Premium_LRS Premium_ZRS StandardV2_LRS StandardV2_GRS \
            StandardV2_ZRS StandardV2_GZRS PremiumV2_LRS PremiumV2_ZRS" -- "$cur"))
        return
        ;;
    --account-kind)
        COMPREPLY=($(compgen -W "StorageV2 Storage BlobStorage BlockBlobStorage FileStorage" \
            -- "$cur"))
        return
        ;;
    --since | --timeout | --workers | --limit | --events | --namespace | --location | \
        --resource-group | --aws-account)
        return
        ;;
    esac

    if [[ -z "$command" ]]; then
        if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$global --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local options=""
    case "$command" in
    apply) options="-f --filename --wait --timeout --dry-run --aws-account" ;;
    diff) options="-f --filename --aws-account" ;;
    get) options="-o --output --unmanaged --all" ;;
    describe) options="--events --unmanaged" ;;
    explain) options="--recursive" ;;
    delete) options="-f --filename --detach --ignore-not-found --wait --timeout" ;;
    claim | reconcile | refresh) options="--wait --timeout" ;;
    events) options="--since --type --limit --follow -o --output" ;;
    export) options="-o --output --for --namespace --location --sku --account-kind
        --resource-group --no-resource-group" ;;
    run) options="--workers" ;;
    help)
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
        ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$options $global" -- "$cur"))
        return
    fi

    case "$command" in
    explain)
        COMPREPLY=($(compgen -W "$kinds" -- "$cur"))
        ;;
    get | export)
        if [[ "$cur" == */* ]]; then
            COMPREPLY=($(compgen -W "$(_converge_resources)" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$kinds $(_converge_resources)" -- "$cur"))
        fi
        ;;
    describe | delete | claim | reconcile | refresh | events)
        COMPREPLY=($(compgen -W "$(_converge_resources)" -- "$cur"))
        ;;
    esac
}

complete -F _converge converge
