/**
 * The second build of e2e/mixed-deploy.spec.ts: the app's own config, with one line added to the
 * page's entry that marks the page as this build. The entry's hashed name changes, and with it
 * the name of every chunk that imports from it (the example among them), as on a real deploy.
 */
import { mergeConfig, type Plugin } from 'vite';
import app from '../vite.config';

const secondBuild: Plugin = {
  name: 's04-second-build',
  transform(code, id) {
    if (id.endsWith('/src/main.ts'))
      return `${code}\ndocument.documentElement.dataset.s04Build = 'second';\n`;
  },
};

export default mergeConfig(app, { plugins: [secondBuild] });
