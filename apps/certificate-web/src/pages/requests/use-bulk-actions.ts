import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  approveRequests,
  checkConflicts,
  rejectRequests,
  type BulkRow,
  type SerialConflict,
} from './requests-api';

export type BulkStep =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'conflicts'; ids: string[]; conflicts: SerialConflict[] }
  | { kind: 'rejecting'; ids: string[] }
  | { kind: 'running'; done: number; total: number }
  | { kind: 'done'; rows: BulkRow[] };

/**
 * The queue's bulk actions: approval first checks the selection for serial conflicts and asks
 * before going on; both run in chunks with progress, then show each row's outcome, and the
 * list is read again.
 */
export function useBulkActions(clearSelection: () => void) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<BulkStep>({ kind: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const progress = (done: number, total: number) => setStep({ kind: 'running', done, total });

  const finish = async (run: () => Promise<BulkRow[]>) => {
    setError(null);
    try {
      const rows = await run();
      setStep({ kind: 'done', rows });
      clearSelection();
    } catch (failure) {
      setError(failure);
      setStep({ kind: 'idle' });
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['requests'] });
      void queryClient.invalidateQueries({ queryKey: ['stats'] });
    }
  };

  const approve = (ids: string[]) => finish(() => approveRequests(ids, progress));

  return {
    step,
    error,
    /** Checks the selection for conflicts, then approves (or asks first). */
    startApproval: async (ids: string[]) => {
      setError(null);
      setStep({ kind: 'checking' });
      try {
        const conflicts = await checkConflicts(ids);
        if (conflicts.length > 0) setStep({ kind: 'conflicts', ids, conflicts });
        else await approve(ids);
      } catch (failure) {
        setError(failure);
        setStep({ kind: 'idle' });
      }
    },
    approve,
    askReject: (ids: string[]) => setStep({ kind: 'rejecting', ids }),
    reject: (ids: string[], reason: string) => finish(() => rejectRequests(ids, reason, progress)),
    cancel: () => setStep({ kind: 'idle' }),
  };
}
