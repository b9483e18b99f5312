// The page msw.browser.test.ts opens in Chromium, written as a frontend project (Vite) would write it and as
// mock/README.md shows it: the whole mock in the page, answering the page's own fetch() through MSW's service worker.
import { setupWorker } from 'msw/browser';
import contractYaml from 'site-contracts/openapi.yaml?raw';
import { createBrowserMock } from 'site-contracts/mock/browser';
import { wordpressHandlers } from 'site-contracts/mock/msw';

const mock = await createBrowserMock({ contract: contractYaml });
const worker = setupWorker(...wordpressHandlers(mock));
await worker.start({ onUnhandledRequest: 'bypass', quiet: true });

// For the test only: the mock answers from here on.
document.documentElement.dataset.mock = 'ready';
