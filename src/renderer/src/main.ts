import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { createAppRouter } from './routes';

// `serve` trades the printed ?token= for a cookie and a redirect; should a token still be in the
// address (an old bookmark, another shell), it leaves the address bar and history at once, before
// the router reads the address (and keeps its own state in the history entry).
if (new URLSearchParams(window.location.search).has('token'))
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);

createApp(App).use(createPinia()).use(createAppRouter()).mount('#app');
