import { render } from 'preact';
import { App } from './app';
import { followLinksAtOnce } from './router';
// The design tokens (src/design/tokens.ts, through the Vite plugin of vite.config.mts), the font, then the kit.
import 'virtual:postwire-tokens.css';
import '@fontsource-variable/inter/wght.css';
import './ui/styles.css';
import { applyTheme } from './ui/theme';

applyTheme();
followLinksAtOnce();
render(<App />, document.getElementById('root')!);
