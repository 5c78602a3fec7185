import { build, type Plugin, type PluginOption, type ResolvedConfig, type Rolldown } from 'vite';

/** The embed's files in the build, as paths under `base`. */
export interface EmbedFiles {
  /** Its module script. */
  script: string;
}

/** What the embed's build is given: its entry, its plugins, and its output's options. */
export interface EmbedEntryOptions {
  /** The embed's script, from the project's root (src/embed.ts). */
  input: string;
  /**
   * Fresh plugins for the embed's build (the app's may keep state of their own build); Svelte's
   * with `css: 'injected'`, as the build must make no stylesheet.
   */
  plugins: () => PluginOption[];
  /** Output options both builds share (`charset`). */
  output?: Rolldown.OutputOptions;
}

/** The embed's script is `assets/embed-<hash>.js`; its build's other files `assets/embed.<name>-<hash>.<ext>`. */
const PREFIX = 'embed';

/**
 * Builds the page's script for an embedded run (`embed=1`, src/embed.ts) on its own, in the same
 * mode as the app, and adds its files to the app's build. One bundle of the two would have to share
 * its modules between them: the app's first paint would then wait for several files (their names
 * exported and imported, each compressed apart) where it waits for one, and more bytes. Built
 * apart, the app's script is the same as without the embed, and the embed's is
 * one file of its own; the parts both load later (the Markdown renderer, Chinese and Japanese, the
 * record fetcher...) are built twice, each page fetching its own copy.
 *
 * `files()` names the embed's script once the build has started (vite-plugins/early-sandbox.ts
 * loads it from the page's first script).
 */
export function embedEntry(options: EmbedEntryOptions): Plugin & { files(): EmbedFiles } {
  let config: ResolvedConfig;
  let files: EmbedFiles | undefined;
  const names = {
    entryFileNames: `assets/${PREFIX}-[hash].js`,
    chunkFileNames: `assets/${PREFIX}.[name]-[hash].js`,
    assetFileNames: `assets/${PREFIX}.[name]-[hash][extname]`,
  };
  return {
    name: 's04:embed-entry',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    files() {
      if (!files) throw new Error('embed-entry: the embed is not built yet');
      return files;
    },
    async buildStart() {
      const output = await build({
        configFile: false,
        root: config.root,
        base: config.base,
        mode: config.mode,
        logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel,
        publicDir: false,
        plugins: options.plugins(),
        // The embed opens a Claude Code session only through code it never calls (Viewer's import);
        // its worker is built all the same, named like the embed's other files.
        worker: {
          format: 'es',
          rolldownOptions: { output: { ...options.output, ...names, entryFileNames: names.chunkFileNames } },
        },
        build: {
          write: false,
          target: config.build.target,
          minify: config.build.minify,
          sourcemap: false,
          rolldownOptions: { input: options.input, output: { ...options.output, ...names } },
        },
      });
      const bundle = (Array.isArray(output) ? output : [output as Rolldown.RolldownOutput]).flatMap(
        (result) => result.output,
      );
      const entry = bundle.find(
        (file): file is Rolldown.OutputChunk => file.type === 'chunk' && file.isEntry,
      );
      if (!entry) throw new Error(`embed-entry: ${options.input} built no script`);
      for (const file of bundle) {
        this.emitFile({
          type: 'asset',
          fileName: file.fileName,
          source: file.type === 'chunk' ? file.code : file.source,
        });
      }
      // A stylesheet would block the embed's first paint as a second request, or leave it unstyled
      // until it arrives: the components inject their styles as they mount, and app.css comes with
      // the page's own stylesheet, which index.html links whatever the address.
      const styles = bundle.filter((file) => file.fileName.endsWith('.css')).map((file) => file.fileName);
      if (styles.length)
        throw new Error(`embed-entry: the embed's build made stylesheets: ${styles.join(', ')}`);
      files = { script: `${config.base}${entry.fileName}` };
    },
  };
}
