// The confirmation link mailed to a sender address leads to /profile/email?confirm=<token>
// (signed in first if need be: the login comes back here). The token leaves the address bar at
// once and is sent to confirm-mail-verify once, even when React mounts the page twice; a token
// that cannot be one (a link cut short by a mail program) is refused without a request.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { confirmMailVerify, ZMailConfirm } from '../api/sender-emails';

/** The link's outcome; a failure keeps its cause (confirmFailure says it in the reader's words). */
export type ConfirmResult =
  { state: 'verified' | 'awaiting_provider'; email: string } | { state: 'failed'; cause: unknown };

/** Tokens already sent, so a second mount does not spend (and fail on) the same link. */
const sent = new Map<string, Promise<ConfirmResult>>();

function confirmOnce(token: string): Promise<ConfirmResult> {
  let result = sent.get(token);
  if (!result) {
    result = ZMailConfirm.safeParse({ token }).success
      ? confirmMailVerify(token).then(
          (data): ConfirmResult => ({ state: data.state, email: data.email }),
          (cause: unknown): ConfirmResult => ({ state: 'failed', cause }),
        )
      : Promise.resolve({ state: 'failed', cause: { code: 'invalid_link' } });
    sent.set(token, result);
  }
  return result;
}

/** The outcome of the link this page was opened with (null while none or still confirming). */
export function useConfirmLink(onConfirmed: () => void): {
  confirming: boolean;
  result: ConfirmResult | null;
} {
  const [params, setParams] = useSearchParams();
  // the link is followed into a fresh page: its token is the one to spend
  const [token] = useState(() => params.get('confirm'));
  const [result, setResult] = useState<ConfirmResult | null>(null);
  const confirmed = useRef(onConfirmed);
  useEffect(() => {
    confirmed.current = onConfirmed;
  });

  useEffect(() => {
    if (!token) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('confirm');
        return next;
      },
      { replace: true },
    );
    let current = true;
    void confirmOnce(token).then((outcome) => {
      if (!current) return;
      setResult(outcome);
      if (outcome.state !== 'failed') confirmed.current();
    });
    return () => {
      current = false;
    };
  }, [token, setParams]);

  return { confirming: token !== null && result === null, result };
}
