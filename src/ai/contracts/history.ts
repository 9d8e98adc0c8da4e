import { z } from 'zod';

/** The conversation so far, as the answer pipeline's tasks read it: who said what, oldest first. */
export const historySchema = z.array(z.object({ role: z.string(), message: z.string() }));
export type History = z.infer<typeof historySchema>;
