/**
 * The page's live dedicated workers as DevTools lists them (nested ones included), with each
 * one's id (to tell one `python` worker from a later one): the e2e tests and the bench count them.
 * Only those of the page's own browser context: a bench keeps other pages of the same origin open.
 */
export async function liveWorkerTargets(page) {
  const own = await page.context().newCDPSession(page);
  const { targetInfo } = await own.send('Target.getTargetInfo').finally(() => own.detach());
  const cdp = await page.context().browser().newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const origin = new URL(page.url()).origin;
    return targetInfos
      .filter(
        (target) =>
          target.type === 'worker' &&
          target.url.startsWith(origin) &&
          target.browserContextId === targetInfo.browserContextId,
      )
      .map((target) => ({ title: target.title, id: target.targetId }));
  } finally {
    await cdp.detach();
  }
}
