// Who is signed in: a workspace API key kept in sessionStorage (gone when the tab closes; never
// localStorage), verified with GET /v2/workspace/public. A key without the `write` scope makes a
// read-only console: write controls are disabled and say why.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, call, type Schemas, setApiKey } from '../api/client';

const STORAGE_KEY = 'parley.apiKey';

export interface Session {
  workspace: Schemas['CurrentWorkspace'];
  canWrite: boolean;
  signOut(): void;
}

interface SessionState {
  /** `restoring` while a key kept from earlier in this tab is verified again. */
  status: 'restoring' | 'signed-out' | 'signed-in';
  session: Session | undefined;
  /** Why the kept key was refused (revoked, expired), shown on the sign-in form. */
  restoreError: unknown;
  signIn(key: string): Promise<void>;
}

/** Whether this tab kept a key from earlier (it is verified again before any page shows). */
export function hasKeptKey(): boolean {
  return sessionStorage.getItem(STORAGE_KEY) !== null;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** The workspace a key belongs to, with its scopes (an ApiError for a bad key). */
function verifyKey(key: string): Promise<Schemas['CurrentWorkspace']> {
  return call(api.GET('/v2/workspace/public', { headers: { authorization: `Bearer ${key}` } }));
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [workspace, setWorkspace] = useState<Schemas['CurrentWorkspace']>();
  const [restoring, setRestoring] = useState(hasKeptKey);
  const [restoreError, setRestoreError] = useState<unknown>();

  const signIn = useCallback(async (key: string) => {
    const verified = await verifyKey(key);
    sessionStorage.setItem(STORAGE_KEY, key);
    setApiKey(key);
    setWorkspace(verified);
  }, []);

  const signOut = useCallback(() => {
    sessionStorage.removeItem(STORAGE_KEY);
    setApiKey(undefined);
    setWorkspace(undefined);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    const kept = sessionStorage.getItem(STORAGE_KEY);
    if (kept === null) return;
    signIn(kept)
      .catch((error: unknown) => {
        sessionStorage.removeItem(STORAGE_KEY);
        setRestoreError(error);
      })
      .finally(() => setRestoring(false));
  }, [signIn]);

  const value = useMemo<SessionState>(
    () => ({
      status: workspace ? 'signed-in' : restoring ? 'restoring' : 'signed-out',
      session: workspace && { workspace, canWrite: workspace.apiKey.scopes.includes('write'), signOut },
      restoreError,
      signIn,
    }),
    [workspace, restoring, restoreError, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The sign-in state, for the guard and the sign-in form. */
export function useSessionState(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSessionState outside SessionProvider');
  return state;
}

/** The signed-in session; only pages behind the sign-in guard call it. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession before sign-in');
  return session;
}
