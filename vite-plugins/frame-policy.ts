import type { Connect, Plugin } from 'vite';
import { isEmbedAddress, NO_FRAMING_HEADERS } from '../src/framed.ts';

/**
 * The dev and preview servers send the whole playground's page with NO_FRAMING_HEADERS
 * (`frame-ancestors 'none'`): no other page, not even one on another port of this machine, may
 * frame it and have the learner's key used. The embed (`embed=1`, the same page with a query
 * parameter) is sent without them: it holds no key and is made to be framed. Only documents get
 * them: a script or a worker has nothing to say about frames.
 */
export function framePolicy(): Plugin {
  const middleware: Connect.NextHandleFunction = (request, response, next) => {
    const url = new URL(request.url ?? '/', 'http://host');
    const dest = request.headers['sec-fetch-dest'];
    const document =
      dest === 'document' || dest === 'iframe' || dest === 'frame' || /(\/|\.html)$/.test(url.pathname);
    if (document && !isEmbedAddress(url.search)) {
      for (const [name, value] of Object.entries(NO_FRAMING_HEADERS)) response.setHeader(name, value);
    }
    next();
  };
  return {
    name: 's04:frame-policy',
    configureServer(server) {
      server.middlewares.use(middleware);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware);
    },
  };
}
