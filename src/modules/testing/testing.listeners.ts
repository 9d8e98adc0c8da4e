import { defineListener, type RegisteredListener, registeredListener } from '../../events/bus.js';
import { runGate } from './gate.service.js';

/** The test gate of every publish of a draft (gate.service.ts): before the publish's transaction; its 409 stops the publish. */
export const publishGateListener = defineListener({
  name: 'testing.publish-gate',
  event: 'publish.requested',
  phase: 'transaction',
  handle: runGate,
});

export const testingListeners: readonly RegisteredListener[] = [registeredListener(publishGateListener)];
