import {
  BuiltInCaIssuer,
  generateCaMaterial,
  IssueRequest,
  loadIssuingCa,
  parseCsr,
  ParsedCsr,
  toPem,
} from '@platform/pki';
import { OpensslWorkspace } from './openssl';

/** A fresh built-in CA with its PEM files written into the workspace. */
export function createCa(ws: OpensslWorkspace): { issuer: BuiltInCaIssuer } {
  const kek = Buffer.alloc(32, 0x5a);
  const material = generateCaMaterial(kek, { organization: 'Example Corp' });
  ws.write('root.pem', material.root.certificatePem);
  ws.write('issuing.pem', material.issuing.certificatePem);
  ws.write('cas.pem', material.root.certificatePem + material.issuing.certificatePem);
  return { issuer: new BuiltInCaIssuer(loadIssuingCa(material, kek)) };
}

export function opensslCsr(
  ws: OpensslWorkspace,
  name: string,
  keyArgs: readonly string[],
): ParsedCsr {
  ws.ok([
    'req',
    '-new',
    ...keyArgs,
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    `/CN=${name}`,
    '-out',
    `${name}.csr`,
  ]);
  return parseCsr(ws.read(`${name}.csr`));
}

/** Issues and writes `<name>.pem`; returns the serial. */
export async function issueTo(
  ws: OpensslWorkspace,
  issuer: BuiltInCaIssuer,
  name: string,
  request: IssueRequest,
): Promise<string> {
  const outcome = await issuer.issue(request);
  if (outcome.status !== 'issued') throw new Error('expected an issued certificate');
  ws.write(`${name}.pem`, toPem('CERTIFICATE', outcome.certificateDer));
  return outcome.serial;
}
