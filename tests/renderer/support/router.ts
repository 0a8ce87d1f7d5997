import { createMemoryHistory, type Router } from 'vue-router';
import { createAppRouter } from '../../../src/renderer/src/routes';

/**
 * The app's routes, already at `path` (`/alerts/1`), for a view mounted alone:
 * `mount(View, { global: { plugins: [router] } })`. The history is in memory (the page's address
 * is left alone), its base `#` making links read as in the app: `#/manager/<id>`.
 */
export async function routerAt(path: string): Promise<Router> {
  const router = createAppRouter(createMemoryHistory('#'));
  await router.push(path);
  return router;
}
