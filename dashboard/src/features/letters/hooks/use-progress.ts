import { useEffect, useState } from 'react';

/** The spec's loading animation: 1% steps over 30 seconds, held at 99% until the answer. */
export function useProgress(active: boolean): number {
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    if (!active) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- restarts the animation
    setPercent(0);
    const timer = window.setInterval(() => setPercent((p) => Math.min(99, p + 1)), 300);
    return () => window.clearInterval(timer);
  }, [active]);
  return active ? percent : 0;
}
