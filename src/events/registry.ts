import { generationListeners } from '../modules/generation/index.js';
import { ruleListeners } from '../modules/rules/index.js';
import { sourceListeners } from '../modules/sources/index.js';
import { testingListeners } from '../modules/testing/index.js';
import { webhookListeners } from '../modules/webhooks/index.js';
import { widgetListeners } from '../modules/widget/index.js';
import type { RegisteredListener } from './bus.js';

/** Every listener of a domain event in Parley. A module adds its listeners here. */
export const eventListeners: readonly RegisteredListener[] = [
  ...sourceListeners,
  ...generationListeners,
  ...ruleListeners,
  ...webhookListeners,
  ...widgetListeners,
  ...testingListeners,
];
