// Reading a Chromium performance trace of one page load (the bench scripts that trace loads).

/**
 * The renderer `pid`'s load: when its navigation started, its main thread (the one that parsed
 * the HTML) and the complete events that ran on that thread.
 */
export function rendererMainThread(events, pid) {
  const start = events.find((e) => e.pid === pid && e.name === 'navigationStart')?.ts;
  const mainThread = events.find((e) => e.pid === pid && e.name === 'ParseHTML')?.tid;
  const onMain = events.filter((e) => e.pid === pid && e.tid === mainThread && e.ph === 'X');
  return { start, mainThread, onMain };
}
