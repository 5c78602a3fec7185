/** `require('buffer')` and the global Buffer: the buffer package, Node's Buffer for browsers. */
import buffer from 'buffer';

export const { Buffer } = buffer;
export default buffer;
