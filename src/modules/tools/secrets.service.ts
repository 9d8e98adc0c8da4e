import type { Db } from '../../db/database.js';
import { transaction } from '../../db/database.js';
import type { SecretBox } from '../../secrets.js';
import { unscopedStepsWithSecrets, updateStep } from './steps.repository.js';

/** Re-seals every sealed value of a stored JSON value: opened with the old key, sealed with the new. */
function reseal(value: unknown, from: SecretBox, to: SecretBox): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { hide?: unknown }).hide === true && typeof (value as { sealed?: unknown }).sealed === 'string') {
    return { hide: true, sealed: to.seal(from.open((value as { sealed: string }).sealed)) };
  }
  if (Array.isArray(value)) return value.map((v) => reseal(v, from, to));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reseal(v, from, to)]));
  return value;
}

/**
 * Key rotation (`parley secrets rotate`), across every workspace on purpose: every stored secret is
 * opened with the current key and sealed with the new one, in one transaction (a value that does
 * not open with the current key aborts it, and nothing changes). Answers how many steps changed.
 */
export async function rotateStoredSecrets(db: Db, from: SecretBox, to: SecretBox, now: Date): Promise<{ steps: number }> {
  return transaction(db, async (tx) => {
    const steps = await unscopedStepsWithSecrets(tx);
    for (const step of steps) {
      await updateStep(
        tx,
        step.workspaceId,
        step.id,
        {
          requestHeaders: reseal(step.requestHeaders, from, to) as Record<string, unknown>,
          requestBody: step.requestBody === null ? null : reseal(step.requestBody, from, to),
        },
        step.updatedBy,
        now,
      );
    }
    return { steps: steps.length };
  });
}
