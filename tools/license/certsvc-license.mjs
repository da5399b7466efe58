#!/usr/bin/env node
// certsvc-license - vendor key pair and signed, instance-bound licenses for the certificate
// service (format certsvc-license/v1, see docs/certificate-service/licensing.md).
//
//   certsvc-license keygen --out vendor.key
//       writes the vendor's Ed25519 private key (PKCS#8 PEM, mode 0600) and prints the public
//       key (raw 32 bytes, base64) to set as CERTSVC_LICENSE_VENDOR_PUBLIC_KEY
//   certsvc-license sign --vendor-key vendor.key --instance-key <deployment_instance_key>
//       --issued-to "Example Ltd" --max-devices 500 [--expires-at 2027-12-31T00:00:00Z]
//       [--seat wifi=400 --seat ssh=50 ...] [--license-id ID] [--out file.lic]
//       prints license_b64 (the body field of POST /api/v1/license/activate) on stdout and,
//       with --out, also writes the .lic file
//
// Node.js only (node:crypto), no dependencies.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomUUID,
  sign,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const PURPOSES = ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'];

function fail(message) {
  process.stderr.write(`certsvc-license: ${message}\n`);
  process.exit(2);
}

function rawPublicKey(keyObject) {
  return createPublicKey(keyObject)
    .export({ format: 'der', type: 'spki' })
    .subarray(-32)
    .toString('base64');
}

function keygen(args) {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (!values.out) fail('keygen needs --out <file>');
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(values.out, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  process.stdout.write(`${rawPublicKey(privateKey)}\n`);
}

function signLicense(args) {
  const { values } = parseArgs({
    args,
    options: {
      'vendor-key': { type: 'string' },
      'instance-key': { type: 'string' },
      'issued-to': { type: 'string' },
      'max-devices': { type: 'string' },
      'expires-at': { type: 'string' },
      'issued-at': { type: 'string' },
      'license-id': { type: 'string' },
      seat: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
  });
  for (const name of ['vendor-key', 'instance-key', 'issued-to', 'max-devices']) {
    if (!values[name]) fail(`sign needs --${name}`);
  }
  if (Buffer.from(values['instance-key'], 'base64').length !== 32) {
    fail('--instance-key must be the deployment_instance_key (32 bytes, base64)');
  }
  const maxDevices = Number(values['max-devices']);
  if (!Number.isSafeInteger(maxDevices) || maxDevices < 1)
    fail('--max-devices must be a positive integer');
  const date = (name) => {
    const v = values[name];
    if (v === undefined) return undefined;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) fail(`--${name} is not a date: ${v}`);
    return d.toISOString();
  };
  let purposeSeats = null;
  if (values.seat) {
    purposeSeats = {};
    for (const s of values.seat) {
      const [purpose, n] = s.split('=');
      const seats = Number(n);
      if (!PURPOSES.includes(purpose) || !Number.isSafeInteger(seats) || seats < 0) {
        fail(`--seat must be <purpose>=<count> with a purpose of ${PURPOSES.join(', ')}: ${s}`);
      }
      purposeSeats[purpose] = seats;
    }
  }
  const terms = {
    license_id: values['license-id'] ?? randomUUID(),
    issued_to: values['issued-to'],
    instance_public_key: values['instance-key'],
    max_devices: maxDevices,
    issued_at: date('issued-at') ?? new Date().toISOString(),
    expires_at: date('expires-at') ?? null,
    purpose_seats: purposeSeats,
  };
  const payload = Buffer.from(JSON.stringify(terms), 'utf8');
  const key = createPrivateKey(readFileSync(values['vendor-key']));
  const file = JSON.stringify({
    format: 'certsvc-license/v1',
    payload: payload.toString('base64'),
    signature: sign(null, payload, key).toString('base64'),
  });
  if (values.out) writeFileSync(values.out, `${file}\n`);
  process.stdout.write(`${Buffer.from(file, 'utf8').toString('base64')}\n`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'keygen') keygen(rest);
else if (command === 'sign') signLicense(rest);
else
  fail(
    'usage: certsvc-license keygen --out <file> | sign --vendor-key <file> --instance-key <b64> --issued-to <name> --max-devices <n> [...]',
  );
