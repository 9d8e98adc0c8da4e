import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentArticle, presentArticleAtVersion } from './articles.presenter.js';
import {
  articleArraySchema,
  articleHistorySchema,
  articleIdsBodySchema,
  articleListQuerySchema,
  articleListSchema,
  articleSchema,
  createArticleBodySchema,
  draftFromLiveBodySchema,
  moveArticleBodySchema,
  publishDraftBodySchema,
  updateArticleBodySchema,
  versionBodySchema,
} from './articles.schemas.js';
import {
  createArticle,
  createDraftFromLive,
  deleteArticle,
  getArticleVersion,
  getArticlesByIds,
  getHistory,
  listArticles,
  moveArticle,
  publishDraftGated,
  revertArticle,
  updateArticleContent,
} from './articles.service.js';

const tags = ['Articles'];

export function articleRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/hc-articles/public',
      auth: 'read',
      tags,
      summary: 'List articles',
      description:
        'Live articles and drafts (`type` narrows to one; `type=draft` lists the open drafts, and ' +
        '`type=draft&isDraftPublished=true` the published ones), most recently changed first, with keyset ' +
        'pagination: pass `nextCursor` as `cursor` for the next page. Filters: `parentFolderId`, ' +
        '`origin`, `q` (case-insensitive match within the title) and `isDraftPublished`.',
      querystring: articleListQuerySchema,
      response: articleListSchema,
      handler: async ({ ctx, query }) => {
        const { limit, cursor, ...filters } = query;
        const page = await listArticles(ctx, filters, limit, cursor);
        return { articles: page.rows.map(presentArticle), hasMore: page.hasMore, nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/ids/public',
      auth: 'read',
      tags,
      summary: 'Fetch articles by id',
      description: 'Returns the articles in the order asked; ids not found in the workspace are skipped.',
      body: articleIdsBodySchema,
      response: articleArraySchema,
      handler: async ({ ctx, body }) => (await getArticlesByIds(ctx, body.articleIds)).map(presentArticle),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/public',
      auth: 'write',
      tags,
      summary: 'Create an article',
      description:
        'Creates a live article, or a draft with `isDraft: true`. `parentFolderId` must be a folder of the ' +
        'workspace (400 otherwise). `origin` defaults to `API_CREATED`. The article starts at version 1.',
      body: createArticleBodySchema,
      status: 201,
      response: articleSchema,
      handler: async ({ ctx, body }) => presentArticle(await createArticle(ctx, body)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/hc-articles/:id/public',
      auth: 'write',
      tags,
      summary: 'Update an article',
      description:
        'Replaces the content; `active` and `public` are kept when omitted. Each update is a new version ' +
        'in the history. A published draft can no longer change (409).',
      params: idParamsSchema,
      body: updateArticleBodySchema,
      errors: [404, 409],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => presentArticle(await updateArticleContent(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/:id/draft/public',
      auth: 'write',
      tags,
      summary: 'Create a draft from a live article',
      description:
        'The draft records `originalArticleId` and `originalArticleVersion` (the live version it was made ' +
        'from) and sits in the same folder. The live article is unchanged until the draft is published.',
      params: idParamsSchema,
      body: draftFromLiveBodySchema,
      status: 201,
      errors: [404],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => {
        const { origin, ...input } = body;
        return presentArticle(await createDraftFromLive(ctx, params.id, input, origin));
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/:id/publish/public',
      auth: 'write',
      tags,
      summary: 'Publish a draft',
      description:
        'A draft of a live article replaces the content of that article as its next version (the article ' +
        'stays in its folder); 409 when the live article ' +
        'changed since the draft was made, unless the body says `{ "overwrite": true }`. Any other draft ' +
        'becomes a new live article. The body may also carry the content fields of create (`title`, ' +
        '`mainKnowledge`, `agentInstruction`, `questions`, `keywords`, `escalation`, `active`, `public`, ' +
        '`origin`), as on the deployed service: those given are saved on the draft and published, the others ' +
        "are the draft's. The draft is kept with `isDraftPublished: true`. Returns the live article. Before it goes live, the " +
        'test gate (docs/testing.md): 409 naming the test cases of the agents answering from its folder that pass today and ' +
        'fail with the draft, unless the body says `{ "force": true }`.',
      params: idParamsSchema,
      body: publishDraftBodySchema,
      errors: [404, 409],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => {
        const { overwrite, force, ...changes } = body ?? { overwrite: false, force: false };
        return presentArticle(await publishDraftGated(ctx, params.id, { overwrite, force }, changes));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-articles/:id/history/public',
      auth: 'read',
      tags,
      summary: "An article's saved versions",
      params: idParamsSchema,
      errors: [404],
      response: articleHistorySchema,
      handler: async ({ ctx, params }) => {
        const { article, versions } = await getHistory(ctx, params.id);
        return {
          articleId: article.id,
          currentVersion: article.version,
          versions: versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() })),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/:id/history/public',
      auth: 'read',
      tags,
      summary: 'An article as it was at a version',
      description: 'Returns the article with the content, `version`, `updatedAt` and `updatedBy` of that saved version.',
      params: idParamsSchema,
      body: versionBodySchema,
      errors: [404],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => {
        const { article, version } = await getArticleVersion(ctx, params.id, body.version);
        return presentArticleAtVersion(article, version);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-articles/:id/revert/public',
      auth: 'write',
      tags,
      summary: 'Revert an article to a saved version',
      description:
        'Restores the content of that version (title, body, instruction, questions, keywords, escalation, ' +
        'active, public) as a new version; the article stays in its current folder.',
      params: idParamsSchema,
      body: versionBodySchema,
      errors: [404, 409],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => presentArticle(await revertArticle(ctx, params.id, body.version)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/hc-articles/:id/move/public',
      auth: 'write',
      tags,
      summary: 'Move an article to another folder',
      description: 'A new version unless the article is already in that folder. 400 when the folder is not in the workspace.',
      params: idParamsSchema,
      body: moveArticleBodySchema,
      errors: [404, 409],
      response: articleSchema,
      handler: async ({ ctx, params, body }) => presentArticle(await moveArticle(ctx, params.id, body.parentFolderId)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-articles/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete an article',
      description:
        'Deletes the article and its history and returns it as it was. Drafts made from it are kept, ' +
        'unlinked (`originalArticleId` and `originalArticleVersion` null): publishing one creates a new live article.',
      params: idParamsSchema,
      errors: [404],
      response: articleSchema,
      handler: async ({ ctx, params }) => presentArticle(await deleteArticle(ctx, params.id)),
    }),
  ];
}
