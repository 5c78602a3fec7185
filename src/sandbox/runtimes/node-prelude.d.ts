/** `<module>?prelude`: the module and what it imports, bundled for QuickJS (vite-plugins/node-prelude.ts). */
declare module '*?prelude' {
  const prelude: {
    /** What QuickJS evaluates first: its value is the entry points. */
    script: string;
    /** CommonJS chunks by file name, which the script loads through the host's `chunk`. */
    chunks: Record<string, string>;
  };
  export default prelude;
}
