/** `certsvc-agent --help`. */
export const USAGE = `Usage: certsvc-agent <command> [options]

Commands:
  enroll   generate the device key, enroll, wait for approval, install the certificate
  run      check in, refresh the certificate bundle, renew before expiry
  ssh      get an OpenSSH user certificate for a public key (after enroll)
  purposes list | request <purpose>: what the device may enroll for; ask for a purpose
  status   print agent-state.json

enroll options:
  --server URL              certificate service base URL (required)
  --serial SERIAL           device serial, the certificate's CN (required)
  --enrollment-token TOKEN  token of an already registered serial
  --platform NAME           linux (default: this machine's), windows, macos
  --hostname NAME           default: this machine's host name
  --wait SECONDS            give up waiting for approval after this long (default 0: wait)
  --tpm                     create the key inside the TPM (tpm2-tools) and attest it
  --tpm-ek-chain FILE       PEM intermediates of the TPM's EK certificate (sent as ek_chain)
  --tcti TCTI               TPM2TOOLS_TCTI for tpm2-tools (enroll and run)

run options:
  --once                    one pass, then exit
  --interval SECONDS        between passes (default 3600)
  --sshd-krl FILE           write the SSH KRL for sshd's RevokedKeys to FILE (0644) each pass

ssh options:
  --public-key FILE         the OpenSSH public key (.pub); FILE-cert.pub is written beside it
  --wait SECONDS            as for enroll

purposes request options (run installs the certificate once approved):
  --user NAME               the person, for user_mtls and ad_logon (required there)
  --upn UPN                 the person's UPN (required for ad_logon)
  --public-key FILE         for ssh: the key the certificate is requested for
  --note TEXT               shown to the administrator

Common options:
  --state-dir DIR           default $CERTSVC_AGENT_STATE_DIR, else /var/lib/certsvc-agent as
                            root, else $XDG_STATE_HOME/certsvc-agent (~/.local/state/...)
  --retry-for SECONDS       retry an unreachable service this long (default 3600)
  --log-file FILE           also log JSON lines to FILE (rotated; the user half: FILE-user)
  --log-max-bytes N         rotate at N bytes (default 5242880), keep --log-keep N (default 3)
  --verbose                 console lines at debug instead of JSON at info
  -h, --help

Exit codes: 0 ok, 1 internal, 2 usage, 3 refused, 4 unreachable, 5 still pending, 6 state dir.
`;
