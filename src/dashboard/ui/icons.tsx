import type { IconNode } from 'lucide';

export {
  Activity,
  Ban,
  BarChart3,
  Bell,
  BookOpen,
  Braces,
  Check,
  ClipboardList,
  ChevronLeft,
  CircleAlert,
  CircleCheck,
  Copy,
  CreditCard,
  ExternalLink,
  Filter,
  FileText,
  Gauge,
  Globe,
  Inbox,
  Info,
  KeyRound,
  LayoutDashboard,
  LogOut,
  Mail,
  Megaphone,
  Menu,
  Monitor,
  Moon,
  Plus,
  Send,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Sun,
  Tags,
  Trash2,
  TriangleAlert,
  Users,
  UsersRound,
  Webhook,
  Workflow,
  X,
} from 'lucide';

/**
 * One icon of the lucide set (https://lucide.dev), drawn with the current text colour. Decorative by default
 * (hidden from screen readers, the text beside it says what it means); `label` makes it an image of its own.
 */
export function Icon({ icon, size = 16, label, class: className }: { icon: IconNode; size?: number; label?: string; class?: string }) {
  return (
    <svg
      class={`icon${className ? ` ${className}` : ''}`}
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true', focusable: 'false' })}
    >
      {icon.map(([tag, attrs], i) => {
        const Tag = tag as 'path';
        return <Tag key={i} {...(attrs as Record<string, string>)} />;
      })}
    </svg>
  );
}
