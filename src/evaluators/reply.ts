import { type ConditionGroup, type ConditionsResult, conditionsHold, evaluateConditions } from './conditions.js';

/**
 * Which reply slot applies to a message (wave2-decisions §3): `NO_REPLY` (the agent stays silent),
 * then `INTERNAL_COMMENT` (a note for the team only), then `DIRECT_REPLY`, which is also the
 * default when no slot's conditions hold. Disabled slots are not evaluated. Pure.
 */

export const REPLY_TYPES = ['NO_REPLY', 'INTERNAL_COMMENT', 'DIRECT_REPLY'] as const;
export type ReplyType = (typeof REPLY_TYPES)[number];

export interface ReplySlot {
  replyType: ReplyType;
  conditions: readonly ConditionGroup[];
  isEnabled: boolean;
}

export interface SlotResult {
  replyType: ReplyType;
  /** A rule is stored for this slot. */
  configured: boolean;
  isEnabled: boolean;
  /** Evaluated: configured and enabled. */
  evaluated: boolean;
  holds: boolean;
  groups: ConditionsResult['groups'];
}

export interface ReplyDecision {
  replyType: ReplyType;
  /** A slot's conditions held (false: `DIRECT_REPLY` by default). */
  matched: boolean;
  slots: SlotResult[];
}

/** The applicable slot with every slot's evaluation trace (the test route, the answer's trace). */
export function chooseReplyType(slots: readonly ReplySlot[], context: unknown): ReplyDecision {
  let chosen: ReplyType | undefined;
  const results = REPLY_TYPES.map((replyType): SlotResult => {
    const slot = slots.find((s) => s.replyType === replyType);
    if (!slot || !slot.isEnabled) {
      return { replyType, configured: slot !== undefined, isEnabled: slot?.isEnabled ?? false, evaluated: false, holds: false, groups: [] };
    }
    const result = evaluateConditions(slot.conditions, context);
    if (result.holds) chosen ??= replyType;
    return { replyType, configured: true, isEnabled: true, evaluated: true, holds: result.holds, groups: result.groups };
  });
  return { replyType: chosen ?? 'DIRECT_REPLY', matched: chosen !== undefined, slots: results };
}

/** The applicable slot without a trace (the answer pipeline's fast path). */
export function replyTypeFor(slots: readonly ReplySlot[], context: unknown): { replyType: ReplyType; matched: boolean } {
  for (const replyType of REPLY_TYPES) {
    const slot = slots.find((s) => s.replyType === replyType);
    if (slot?.isEnabled && conditionsHold(slot.conditions, context)) return { replyType, matched: true };
  }
  return { replyType: 'DIRECT_REPLY', matched: false };
}
