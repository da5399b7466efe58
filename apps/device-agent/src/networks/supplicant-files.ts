import type { NetworkProfile } from '../api/api-types';

/** Paths the profiles name: the machine certificate, its key (none for a TPM key), the CAs. */
export interface ProfilePaths {
  readonly certificate: string;
  readonly privateKey: string | null;
  readonly caCertificates: string;
  readonly identity: string;
}

const PLAIN = /^[\x20-\x7e]+$/;

/** A NetworkManager keyfile (`/etc/NetworkManager/system-connections/*.nmconnection`). */
export function networkManagerKeyfile(profile: NetworkProfile, paths: ProfilePaths): string {
  const wifi = profile.kind === 'wifi';
  const lines = [
    '# Written by certsvc-agent (not applied): copy to /etc/NetworkManager/system-connections/',
    '[connection]',
    `id=${oneLine(profile.name)}`,
    `uuid=${profile.id}`,
    `type=${wifi ? 'wifi' : 'ethernet'}`,
    '',
  ];
  if (wifi) {
    lines.push('[wifi]', 'mode=infrastructure', `ssid=${keyfileSsid(profile.ssid ?? '')}`);
    lines.push(`hidden=${profile.hidden === true}`, '', '[wifi-security]', 'key-mgmt=wpa-eap', '');
  } else {
    lines.push('[ethernet]', '');
  }
  lines.push('[802-1x]', 'eap=tls;', `identity=${oneLine(paths.identity)}`);
  lines.push(`ca-cert=${paths.caCertificates}`, `client-cert=${paths.certificate}`);
  if (paths.privateKey)
    lines.push(`private-key=${paths.privateKey}`, 'private-key-password-flags=4');
  else lines.push('# the key is in the TPM: set private-key to its PKCS#11 URI (tpm2-pkcs11)');
  if (profile.radius_server_names.length > 0) {
    lines.push(`domain-match=${profile.radius_server_names.map(oneLine).join(';')}`);
  }
  lines.push('', '[ipv4]', 'method=auto', '', '[ipv6]', 'method=auto', '');
  return lines.join('\n');
}

/** A wpa_supplicant `network={...}` block (wired: for `wpa_supplicant -D wired`, ap_scan=0). */
export function wpaSupplicantBlock(profile: NetworkProfile, paths: ProfilePaths): string {
  const wifi = profile.kind === 'wifi';
  const lines = [
    '# Written by certsvc-agent (not applied)',
    `# ${oneLine(profile.name)} (${profile.id})`,
  ];
  if (!wifi) lines.push('ap_scan=0');
  lines.push('network={');
  if (wifi) {
    lines.push(`\tssid=${Buffer.from(profile.ssid ?? '', 'utf8').toString('hex')}`);
    if (profile.hidden) lines.push('\tscan_ssid=1');
  }
  lines.push(`\tkey_mgmt=${wifi ? 'WPA-EAP' : 'IEEE8021X'}`, '\teap=TLS');
  lines.push(`\tidentity=${quoted(paths.identity)}`, `\tca_cert=${quoted(paths.caCertificates)}`);
  lines.push(`\tclient_cert=${quoted(paths.certificate)}`);
  if (paths.privateKey) lines.push(`\tprivate_key=${quoted(paths.privateKey)}`);
  if (profile.radius_server_names.length > 0) {
    lines.push(`\tdomain_match=${quoted(profile.radius_server_names.join(';'))}`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** NetworkManager reads a printable SSID as is, any other as a list of byte values. */
function keyfileSsid(ssid: string): string {
  if (PLAIN.test(ssid) && !/[;#\\]/.test(ssid) && ssid.trim() === ssid) return ssid;
  return `${[...Buffer.from(ssid, 'utf8')].join(';')};`;
}

function oneLine(value: string): string {
  return value.replace(/[\r\n\t]/g, ' ');
}

/** A wpa_supplicant string: quoted when plain, else hex (P"..." escapes are not needed). */
function quoted(value: string): string {
  return PLAIN.test(value) && !value.includes('"')
    ? `"${value}"`
    : Buffer.from(value, 'utf8').toString('hex');
}
