/**
 * Hand-written: TextEncoder and TextDecoder, which QuickJS lacks, as calls to the host's native
 * UTF-8 encoder and decoder (a JavaScript one inside QuickJS is many times slower on big files).
 */
import { utf8Decode, utf8Encode } from './host.js';

export class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(text = '') {
    return utf8Encode(text);
  }
}

export class TextDecoder {
  constructor(encoding = 'utf-8') {
    if (!/^utf-?8$/i.test(encoding)) throw new RangeError(`The "${encoding}" encoding is not supported`);
  }
  get encoding() {
    return 'utf-8';
  }
  decode(input) {
    if (input === undefined) return '';
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    return utf8Decode(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}
