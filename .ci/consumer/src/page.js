// A page of a frontend app, as its bundler sees it: the whole mock in the page behind MSW's service worker, built
// from the installed package (site-contracts/mock/browser reaches no Node module, or the bundle would fail).
import { setupWorker } from 'msw/browser';
import contractYaml from 'site-contracts/openapi.yaml';
import { createBrowserMock } from 'site-contracts/mock/browser';
import { wordpressHandlers } from 'site-contracts/mock/msw';

const mock = await createBrowserMock({ contract: contractYaml });
await setupWorker(...wordpressHandlers(mock)).start({ onUnhandledRequest: 'bypass', quiet: true });
document.documentElement.dataset.mock = 'ready';
