// `${...}` placeholders of a step, highlighted where they stand, and what each one refers to: an
// input of the action, or an output an earlier step maps (`${stepIdOrName.key}`), as the engine
// resolves them (src/modules/tools/engine.service.ts `lookup`).
import { List, Mark, Text } from '@mantine/core';
import { Fragment } from 'react';
import type { DataStep, InputField } from '../api';

const PLACEHOLDER = /\$\{([^{}]{1,200})\}/g;

/** The text with each placeholder marked. */
export function Highlighted({ text }: { text: string }) {
  const parts = text.split(/(\$\{[^{}]{1,200}\})/g);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Mark key={i} color="yellow" px={2}>
            {part}
          </Mark>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** Every placeholder name in a value (strings anywhere inside objects and arrays). */
export function placeholdersIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(PLACEHOLDER)) into.add((m[1] ?? '').trim());
  else if (Array.isArray(value)) value.forEach((v) => placeholdersIn(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => placeholdersIn(v, into));
  return into;
}

/** What `${name}` refers to, in words; `ok` false when the run would fail on it. */
export function referenceOf(name: string, inputs: InputField[], earlier: DataStep[]): { text: string; ok: boolean } {
  const input = inputs.find((f) => f.name === name);
  if (input) return { text: `the input ${name} (${input.type}${input.required ? ', required' : ''})`, ok: true };
  const dot = name.indexOf('.');
  if (dot > 0) {
    const ref = name.slice(0, dot);
    const key = name.slice(dot + 1);
    const step = earlier.find((s) => s.id === ref || s.name === ref);
    if (step) {
      const position = `step ${earlier.indexOf(step) + 1} “${step.name}”`;
      return key in step.saveFromResponse ? { text: `the output ${key} of ${position} (${step.saveFromResponse[key]})`, ok: true } : { text: `${position} maps no output ${key}`, ok: false };
    }
  }
  return { text: 'neither an input nor an output of an earlier step: the run fails (invalid_input)', ok: false };
}

/** The list of a step's placeholders with what each refers to. */
export function PlaceholderList({ step, inputs, earlier }: { step: Pick<DataStep, 'url' | 'headers' | 'body'>; inputs: InputField[]; earlier: DataStep[] }) {
  const names = [...placeholdersIn([step.url, step.headers, step.body])];
  if (names.length === 0) return null;
  return (
    <List size="sm" spacing={2} aria-label="Placeholders">
      {names.map((name) => {
        const ref = referenceOf(name, inputs, earlier);
        return (
          <List.Item key={name}>
            <Mark color="yellow" px={2}>{`\${${name}}`}</Mark>{' '}
            <Text span size="sm" c={ref.ok ? undefined : 'red.9'}>
              {ref.text}
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
