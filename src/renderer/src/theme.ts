import { ref } from 'vue';

/** Bumped when the theme changes, so every chart option that reads the colours recomputes. */
export const themeVersion = ref(0);
