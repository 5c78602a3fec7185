import type { Page } from '@playwright/test';

export declare function liveWorkerTargets(page: Page): Promise<Array<{ title: string; id: string }>>;
