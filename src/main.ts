import './boot';
import { mount } from 'svelte';
import App from './ui/App.svelte';
import './ui/app.css';

// The sandbox's worker was created by boot.ts; its script is fetched in a task of this thread,
// so the screen is built one task later, to let that fetch start before the busy mount.
setTimeout(() => mount(App, { target: document.getElementById('app')! }), 0);
