import { encodeMultipart } from './multipart-body';

describe('encodeMultipart', () => {
  it('lays out parts the way a browser does', () => {
    const body = encodeMultipart(
      [
        { name: 'file', filename: 'r.sarif', contentType: 'application/json', data: '{}' },
        { name: 'engine', data: 'x' },
      ],
      'B',
    ).toString();
    expect(body).toBe(
      '--B\r\nContent-Disposition: form-data; name="file"; filename="r.sarif"\r\n' +
        'Content-Type: application/json\r\n\r\n{}\r\n' +
        '--B\r\nContent-Disposition: form-data; name="engine"\r\n\r\nx\r\n--B--\r\n',
    );
  });

  it('keeps NUL and latin1 bytes of header values, and can leave the form open', () => {
    const body = encodeMultipart([{ name: 'f', filename: 'a\u0000\u00ff', data: '' }], 'B', false);
    expect(body.includes(Buffer.from([0x61, 0x00, 0xff]))).toBe(true);
    expect(body.toString('latin1').endsWith('--B--\r\n')).toBe(false);
  });

  it('sends raw part headers as given', () => {
    const body = encodeMultipart([{ rawHeaders: 'X: y\r\n', data: 'z' }], 'B').toString();
    expect(body).toBe('--B\r\nX: y\r\n\r\nz\r\n--B--\r\n');
  });
});
