// Shared fixtures of the Refine with AI tests.

/** A model's diagnosis (the diagnose_answer task's structured output): a missing article about shipping to Canada. */
export const SHIPPING_DIAGNOSIS = {
  summary: 'Add the shipping article.',
  confidence: 'high',
  changes: [
    {
      rootCause: {
        failureStage: 'knowledge_search',
        failureMode: 'relevant_knowledge_not_available',
        reasoning: 'Nothing about Canada.',
        target: { kind: 'kb_article', operation: 'create', promptType: null, articleId: null, articleFields: null, ruleId: null },
      },
      changeType: 'create_article',
      promptSection: null,
      article: { articleId: null, title: 'Shipping to Canada', mainKnowledge: 'We ship to Canada within 5 business days.', questions: ['Do you ship to Canada?'] },
      rule: null,
    },
  ],
  warnings: [],
};
