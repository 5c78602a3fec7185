/** `require('string_decoder')`: the string_decoder package, Node's own for other engines. */
export { StringDecoder } from 'string_decoder';
