// Query and mutation hooks of the Connections page: each provider's connection (connect, test,
// disconnect), discovery of what it can read, and registering picked resources as sources, which
// are then ingested and followed until their jobs end.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { sourceKeys } from '../sources/api';
import type { Credentials, Discovered, Provider, RegisterEntry } from './providers';

export const connectionKeys = {
  all: ['connections'] as const,
  one: (provider: Provider) => ['connections', 'one', provider] as const,
  resources: (provider: Provider) => ['connections', 'resources', provider] as const,
};

const path = (provider: Provider) => ({ params: { path: { provider } } });

export function useConnection(provider: Provider) {
  return useQuery({ queryKey: connectionKeys.one(provider), queryFn: () => call(api.GET('/v2/providers/{provider}/connection/public', path(provider))) });
}

/** What the connection can read now (every page of the provider's listing), minus what was imported. */
export function useResources(provider: Provider, enabled: boolean) {
  return useQuery({
    queryKey: connectionKeys.resources(provider),
    enabled,
    // Each look asks the provider again (its whole listing): only when asked to.
    staleTime: Infinity,
    queryFn: async () => (await call(api.GET('/v2/documents/public/resources/{provider}', path(provider)))) as Discovered,
  });
}

/** After a change to a connection, its card and what it can read are read again. */
function useConnectionMutation<I, O>(provider: Provider, mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: connectionKeys.one(provider) }), queryClient.resetQueries({ queryKey: connectionKeys.resources(provider) })]),
  });
}

/** Checks the credentials with the provider and stores them (`********` keeps a stored secret). */
export const useConnect = (provider: Provider) =>
  useConnectionMutation(provider, (body: Credentials) => call(api.PUT('/v2/providers/{provider}/connection/public', { ...path(provider), body })));

export const useDisconnect = (provider: Provider) =>
  useConnectionMutation(provider, () => call(api.DELETE('/v2/providers/{provider}/connection/public', path(provider))));

/** The stored credentials against the provider, now: `ok`, or the provider's refusal in `error`. */
export const useTestConnection = (provider: Provider) =>
  useMutation({ mutationFn: () => call(api.POST('/v2/providers/{provider}/connection/test/public', path(provider))) });

type Registered = { addedDocumentIds: string[]; updatedDocumentIds: string[] };

/** The resources were registered as sources, but the ingest call after it failed: both said apart. */
export class IngestFailed extends Error {
  constructor(
    readonly registered: Registered,
    readonly reason: unknown,
  ) {
    const count = registered.addedDocumentIds.length + registered.updatedDocumentIds.length;
    super(`Registered ${count} ${count === 1 ? 'source' : 'sources'}; ingesting them failed: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/** The ids of the sources an import registered (new and known). */
export const registeredIds = (registered: Registered) => [...registered.addedDocumentIds, ...registered.updatedDocumentIds];

/**
 * Registers the picked resources as sources (created, or updated by external id), then ingests
 * them: new ones added, known ones refreshed. Answers the ids of both; when only the second step
 * fails, throws IngestFailed with what was registered. Sources are read again either way.
 */
export function useImport(provider: Provider) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (resources: RegisterEntry[]) => {
      const registered = await call(api.POST('/v2/documents/public/resources/{provider}', { ...path(provider), body: { resources } }));
      try {
        await call(
          api.POST('/v2/documents/public', {
            body: { source: provider, documentIdsToAdd: registered.addedDocumentIds, documentIdsToRefresh: registered.updatedDocumentIds },
          }),
        );
      } catch (error) {
        throw new IngestFailed(registered, error);
      }
      return registered;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sourceKeys.all }),
  });
}

const running = (status: string | null | undefined) => status === 'PENDING' || status === 'IN_PROGRESS';

/** The imported sources, each looked at again every second while its ingestion job runs. */
export function useImportedSources(ids: string[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: sourceKeys.one(id),
      queryFn: () => call(api.GET('/v2/documents/public/{id}', { params: { path: { id } } })),
      refetchInterval: (query: { state: { data?: { linkedJobStatus: string | null }; error: unknown } }) =>
        query.state.error || (query.state.data && !running(query.state.data.linkedJobStatus)) ? false : 1000,
    })),
  });
}
