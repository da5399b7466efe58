/** A device serial: 1 to 128 printable ASCII characters, no surrounding spaces. */
export const SERIAL_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,126}[\x21-\x7e])?$/;
