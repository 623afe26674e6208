import { render } from 'preact';
import { App } from './app';
import { followLinksAtOnce } from './router';
import './ui/styles.css';
import { applyTheme } from './ui/theme';

applyTheme();
followLinksAtOnce();
render(<App />, document.getElementById('root')!);
