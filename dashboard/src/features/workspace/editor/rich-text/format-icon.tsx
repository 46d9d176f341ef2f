// The description editor's toolbar pictures.

export type Format = 'bold' | 'italic' | 'link' | 'ul' | 'ol';

/** Toolbar pictures (the buttons' names are their labels). */
export function FormatIcon({ format }: { format: Format }) {
  const common = { width: 18, height: 18, viewBox: '0 0 24 24', 'aria-hidden': true } as const;
  switch (format) {
    case 'bold':
      return (
        <svg {...common}>
          <path
            fill="currentColor"
            d="M7 4h6.2c2.6 0 4.3 1.4 4.3 3.6 0 1.4-.8 2.5-2 3 1.6.4 2.6 1.7 2.6 3.4 0 2.5-1.9 4-4.8 4H7V4zm3 5.6h2.7c1.1 0 1.8-.6 1.8-1.5s-.7-1.5-1.8-1.5H10v3zm0 5.9h3c1.2 0 2-.6 2-1.6s-.8-1.7-2-1.7h-3v3.3z"
          />
        </svg>
      );
    case 'italic':
      return (
        <svg {...common}>
          <path fill="currentColor" d="M10 4h8v2.6h-2.8l-3 10.8H15V20H7v-2.6h2.8l3-10.8H10z" />
        </svg>
      );
    case 'link':
      return (
        <svg {...common} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
          <path d="M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1 1" />
          <path d="M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1-1" />
        </svg>
      );
    case 'ul':
      return (
        <svg {...common}>
          <g fill="currentColor">
            <circle cx="5" cy="6.5" r="1.8" />
            <circle cx="5" cy="12" r="1.8" />
            <circle cx="5" cy="17.5" r="1.8" />
            <rect x="9" y="5.4" width="12" height="2.2" rx="1" />
            <rect x="9" y="10.9" width="12" height="2.2" rx="1" />
            <rect x="9" y="16.4" width="12" height="2.2" rx="1" />
          </g>
        </svg>
      );
    case 'ol':
      return (
        <svg {...common}>
          <g fill="currentColor">
            <text x="2" y="9" fontSize="7" fontWeight="700" fontFamily="sans-serif">
              1
            </text>
            <text x="2" y="19.5" fontSize="7" fontWeight="700" fontFamily="sans-serif">
              2
            </text>
            <rect x="9" y="5.4" width="12" height="2.2" rx="1" />
            <rect x="9" y="15.9" width="12" height="2.2" rx="1" />
          </g>
        </svg>
      );
  }
}
