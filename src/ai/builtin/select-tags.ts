import type { SelectTagsInput, SelectTagsOutput, TagGroupChoice, TagSelection } from '../contracts/select-tags.js';
import { terms } from '../../text/terms.js';
import { round } from './round.js';

/** The built-in engine's `select_tags` method (docs/conversations.md). Deterministic and offline. */

/** A tag applies when the text holds half of its name's and description's terms (each counted as a share). */
export function selectTags(input: SelectTagsInput): SelectTagsOutput {
  return {
    input: chooseTags(input.message, input.inputGroups, 'the customer message'),
    output: chooseTags(`${input.message}\n${input.answer ?? ''}`, input.outputGroups, 'the message and the answer'),
  };
}

const TAG_THRESHOLD = 0.5;

function chooseTags(text: string, groups: readonly TagGroupChoice[], what: string): TagSelection {
  const held = new Set(terms(text));
  const chosenTags: TagSelection['chosenTags'] = [];
  const notes: string[] = [];
  for (const group of groups) {
    const scored = group.tags
      .map((tag) => {
        const nameTerms = [...new Set(terms(tag.name))];
        const descTerms = [...new Set(terms(tag.description))];
        const name = nameTerms.length ? nameTerms.filter((t) => held.has(t)).length / nameTerms.length : 0;
        const desc = descTerms.length ? descTerms.filter((t) => held.has(t)).length / descTerms.length : 0;
        return { tag: tag.name, score: round(name + desc) };
      })
      .sort((a, b) => b.score - a.score || a.tag.localeCompare(b.tag));
    let picked = scored.filter((s) => s.score >= TAG_THRESHOLD);
    if (!group.multiselect) picked = picked.slice(0, 1);
    if (picked.length === 0 && group.mandatory && scored[0]) picked = [scored[0]];
    if (picked.length) {
      chosenTags.push({ group: group.title, tags: picked.map((p) => p.tag) });
      notes.push(`${group.title}: ${picked.map((p) => `${p.tag} (${p.score})`).join(', ')}`);
    }
  }
  return {
    reasoning: notes.length ? `Tags whose words ${what} holds: ${notes.join('; ')}.` : `No tag's words appear in ${what}.`,
    chosenTags,
  };
}

