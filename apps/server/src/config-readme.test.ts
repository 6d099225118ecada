import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.ts';

/** One row of README.md's configuration table; several variables may share a row. */
interface Row {
  variables: string[];
  default: string;
  meaning: string;
}

function readmeRows(): Row[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [variables = '', def = '', meaning = '', ...rest] = line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim());
      expect(rest, line).toEqual([]);
      return { variables: [...variables.matchAll(/`(\w+)`/g)].map((m) => m[1] ?? ''), default: def, meaning };
    });
}

/** The table as the schema would write it: variables with the same default and meaning share a row. */
function schemaRows(): Row[] {
  const rows: Row[] = [];
  for (const [name, variable] of Object.entries(configSchema.properties)) {
    const annotated = variable as { default?: unknown; defaultText?: string; description?: string };
    const def = annotated.defaultText ?? `\`${annotated.default}\``;
    const meaning = annotated.description ?? '';
    const last = rows.at(-1);
    if (last && last.default === def && last.meaning === meaning) last.variables.push(name);
    else rows.push({ variables: [name], default: def, meaning });
  }
  return rows;
}

describe('the configuration table in README.md', () => {
  it('lists exactly the variables of the schema, with their defaults and meanings', () => {
    expect(readmeRows()).toEqual(schemaRows());
  });

  it('has, for every variable, one default and a meaning', () => {
    for (const [name, variable] of Object.entries(configSchema.properties)) {
      const annotated = variable as { default?: unknown; defaultText?: string; description?: string };
      expect((annotated.default === undefined) !== (annotated.defaultText === undefined), name).toBe(true);
      expect(annotated.description, name).toBeTruthy();
    }
  });
});
