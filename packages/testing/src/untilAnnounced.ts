/**
 * Resolves once `check` holds: at once, or at the first `event` of `emitter` after which it does.
 * pollUntil's counterpart for a condition that an emitter announces every change of, so that the
 * test wakes at the change rather than on a timer.
 */
export function untilAnnounced(
  emitter: { on(event: string, listener: () => void): unknown; off(event: string, listener: () => void): unknown },
  event: string,
  check: () => boolean,
): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve) => {
    const recheck = () => {
      if (!check()) return;
      emitter.off(event, recheck);
      resolve();
    };
    emitter.on(event, recheck);
  });
}
