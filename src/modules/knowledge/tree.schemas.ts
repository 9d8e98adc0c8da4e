import { z } from 'zod';
import { articleSchema } from './articles.schemas.js';
import { folderSchema } from './folders.schemas.js';

export const treePersistResultSchema = z
  .object({
    status: z.literal('success'),
    message: z.string(),
    folders: z.array(folderSchema).describe('every folder the file names, created or reused'),
    articles: z.array(articleSchema).describe('the articles created, in file order'),
  })
  .meta({ id: 'TreePersistResult' });
