/**
 * The page's live dedicated workers as DevTools lists them (nested ones included), with each
 * one's id (to tell one `python` worker from a later one): the e2e tests and the bench count them.
 */
export async function liveWorkerTargets(page) {
  const cdp = await page.context().browser().newBrowserCDPSession();
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const origin = new URL(page.url()).origin;
    return targetInfos
      .filter((target) => target.type === 'worker' && target.url.startsWith(origin))
      .map((target) => ({ title: target.title, id: target.targetId }));
  } finally {
    await cdp.detach();
  }
}
