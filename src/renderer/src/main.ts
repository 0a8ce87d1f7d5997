import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';

// `serve` trades the printed ?token= for a cookie and a redirect; should a token still be in the
// address (an old bookmark, another shell), it leaves the address bar and history at once.
if (new URLSearchParams(window.location.search).has('token'))
  window.history.replaceState(null, '', `${window.location.pathname}${window.location.hash}`);

createApp(App).use(createPinia()).mount('#app');
