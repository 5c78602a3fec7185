import type { Plugin } from 'vite';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `vite preview` serves the built files with `Cache-Control: no-cache`, so the browser asks the
 * server again for every worker it starts: one round trip on each subagent's spawn. The files
 * under /assets/ have their content's hash in their names, so they are served as a static host
 * would serve them: cached for good. index.html (which names them) keeps `no-cache`.
 */
export function immutableAssets(): Plugin {
  return {
    name: 's04:immutable-assets',
    configurePreviewServer(server) {
      // Runs before Vite's static file handler, which sets its own Cache-Control later.
      server.middlewares.use((req, res, next) => {
        if (req.url?.startsWith('/assets/')) {
          const setHeader = res.setHeader.bind(res);
          res.setHeader = (name, value) =>
            setHeader(name, name.toLowerCase() === 'cache-control' ? IMMUTABLE : value);
        }
        next();
      });
    },
  };
}
