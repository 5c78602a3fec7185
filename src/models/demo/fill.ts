/**
 * Fills a template's `{{name}}` slots (the demo's words in words/*.json, the files it writes in
 * templates/). A slot with no value is a mistake in the template and throws, naming it.
 */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for {{${name}}} in "${template.slice(0, 60)}"`);
    return String(values[name]);
  });
}
