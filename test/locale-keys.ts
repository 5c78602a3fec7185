/**
 * The key-equality check of translations kept as JSON trees (the screen's src/ui/locales, the demo
 * model's src/models/demo/words): every language has English's keys, no other, and the same
 * `{{values}}` in each, with the plural forms the language uses.
 */

export type Tree = { [key: string]: string | Tree };

/** Every key of a locale as `a.b.c`, with the `{{values}}` its text uses. */
export function flatten(tree: Tree, prefix = ''): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') {
      const names = [...value.matchAll(/\{\{\s*([\w]+)[^}]*\}\}/g)].map((m) => m[1]);
      out.set(path, [...new Set(names)].sort());
    } else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * What is wrong with a locale's keys, compared with English's: a key the screen asks for that it
 * lacks or has extra, a `{{value}}` it drops or invents, a plural form the language does not use.
 * A plural key (`x_one`, `x_other`) counts as `x`: English needs `_one` and `_other`; Chinese and
 * Japanese have one form, `_other`, for any count.
 */
export function differences(english: Tree, other: Tree, otherForms: string[]): string[] {
  const problems: string[] = [];
  const asked = (tree: Tree, forms: string[], name: string) => {
    const flat = flatten(tree);
    const out = new Map<string, string[]>();
    for (const [key, names] of flat) {
      const form = PLURAL.exec(key)?.[1];
      if (!form) {
        out.set(key, names);
        continue;
      }
      const base = key.slice(0, -form.length - 1);
      if (!forms.includes(form)) problems.push(`${name}: ${key} is not a plural form of this language`);
      for (const needed of forms) {
        if (!flat.has(`${base}_${needed}`)) problems.push(`${name}: ${base}_${needed} is missing`);
      }
      // `count` is given by whoever asks for a plural, whether or not the text shows it.
      out.set(base, [...new Set([...(out.get(base) ?? []), ...names, 'count'])].sort());
    }
    return out;
  };
  const en = asked(english, ['one', 'other'], 'en');
  const theirs = asked(other, otherForms, 'other');
  for (const [key, names] of en) {
    const their = theirs.get(key);
    if (!their) problems.push(`missing: ${key}`);
    else if (their.join() !== names.join()) problems.push(`${key}: uses {{${their}}}, English {{${names}}}`);
  }
  for (const key of theirs.keys()) if (!en.has(key)) problems.push(`not in English: ${key}`);
  return [...new Set(problems)];
}
