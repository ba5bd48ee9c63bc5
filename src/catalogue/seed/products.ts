/**
 * The seeded catalogue: subscriptions people commonly pay for, with the brand, homepage domain, category id
 * (see categories.ts), a typical entry-level list price, its currency, billing cycle (M monthly, Y yearly,
 * W weekly) and the refund window in days (0: no refunds by policy). Written by us from public price lists;
 * prices change, so they are a starting point that the user edits on their record.
 */
export interface SeedProduct {
  name: string;
  brand: string;
  domain: string;
  categoryId: number;
  price: string;
  currency: string;
  cycle: 2 | 3 | 4;
  refundDays: number;
}

const CATALOGUE = `
Netflix Standard|Netflix|netflix.com|2|15.49|USD|M|0
Netflix Premium|Netflix|netflix.com|2|22.99|USD|M|0
Disney+|Disney|disneyplus.com|2|9.99|USD|M|0
Hulu|Disney|hulu.com|2|9.99|USD|M|0
Max|Warner Bros. Discovery|max.com|2|9.99|USD|M|0
Amazon Prime|Amazon|amazon.com|16|14.99|USD|M|3
Amazon Prime Video|Amazon|primevideo.com|2|8.99|USD|M|3
Apple TV+|Apple|tv.apple.com|2|9.99|USD|M|14
Paramount+|Paramount|paramountplus.com|2|7.99|USD|M|0
Peacock Premium|NBCUniversal|peacocktv.com|2|7.99|USD|M|0
YouTube Premium|Google|youtube.com|2|13.99|USD|M|0
YouTube TV|Google|tv.youtube.com|2|82.99|USD|M|0
Crunchyroll Fan|Crunchyroll|crunchyroll.com|2|7.99|USD|M|0
Mubi|MUBI|mubi.com|2|14.99|USD|M|0
Sling TV Orange|DISH Network|sling.com|2|40.00|USD|M|0
Fubo|FuboTV|fubo.tv|2|79.99|USD|M|0
Philo|Philo|philo.com|2|28.00|USD|M|0
Starz|Lionsgate|starz.com|2|9.99|USD|M|0
MGM+|Amazon|mgmplus.com|2|6.99|USD|M|0
AMC+|AMC Networks|amcplus.com|2|8.99|USD|M|0
BritBox|BBC Studios|britbox.com|2|8.99|USD|M|0
Shudder|AMC Networks|shudder.com|2|6.99|USD|M|0
Discovery+|Warner Bros. Discovery|discoveryplus.com|2|4.99|USD|M|0
ESPN+|Disney|plus.espn.com|2|11.99|USD|M|0
DAZN|DAZN Group|dazn.com|2|19.99|USD|M|0
Curiosity Stream|CuriosityStream|curiositystream.com|2|4.99|USD|M|0
Nebula|Standard Broadcast|nebula.tv|2|6.00|USD|M|0
CuriosityStream Annual|CuriosityStream|curiositystream.com|2|39.99|USD|Y|0
Criterion Channel|The Criterion Collection|criterionchannel.com|2|10.99|USD|M|0
Acorn TV|AMC Networks|acorn.tv|2|7.99|USD|M|0
Hayu|NBCUniversal|hayu.com|2|6.99|GBP|M|0
NOW Entertainment|Sky|nowtv.com|2|9.99|GBP|M|0
Canal+|Canal+ Group|canalplus.com|2|24.99|EUR|M|0
Stan|Nine Entertainment|stan.com.au|2|12.00|AUD|M|0
Crave|Bell Media|crave.ca|2|9.99|CAD|M|0
Viaplay|Viaplay Group|viaplay.com|2|99.00|SEK|M|0
Hotstar|JioStar|hotstar.com|2|299.00|INR|M|0
Twitch Turbo|Amazon|twitch.tv|2|11.99|USD|M|0
Plex Pass|Plex|plex.tv|2|6.99|USD|M|0
Spotify Premium Individual|Spotify|spotify.com|3|11.99|USD|M|0
Spotify Premium Family|Spotify|spotify.com|3|19.99|USD|M|0
Spotify Premium Duo|Spotify|spotify.com|3|16.99|USD|M|0
Spotify Premium Student|Spotify|spotify.com|3|5.99|USD|M|0
Apple Music|Apple|music.apple.com|3|10.99|USD|M|14
Apple One Individual|Apple|apple.com|4|19.95|USD|M|14
Apple One Family|Apple|apple.com|4|25.95|USD|M|14
YouTube Music Premium|Google|music.youtube.com|3|10.99|USD|M|0
Amazon Music Unlimited|Amazon|music.amazon.com|3|10.99|USD|M|0
Tidal|Block|tidal.com|3|10.99|USD|M|0
Deezer Premium|Deezer|deezer.com|3|11.99|USD|M|0
Qobuz Studio|Qobuz|qobuz.com|3|12.99|USD|M|0
SoundCloud Go+|SoundCloud|soundcloud.com|3|10.99|USD|M|0
Pandora Premium|SiriusXM|pandora.com|3|10.99|USD|M|0
SiriusXM Music & Entertainment|SiriusXM|siriusxm.com|3|9.99|USD|M|0
Audible Premium Plus|Amazon|audible.com|17|14.95|USD|M|0
Audible Plus|Amazon|audible.com|17|7.95|USD|M|0
Kindle Unlimited|Amazon|amazon.com|17|11.99|USD|M|0
Scribd Everand|Scribd|everand.com|17|11.99|USD|M|0
Storytel|Storytel|storytel.com|17|169.00|SEK|M|0
BookBeat|BookBeat|bookbeat.com|17|14.99|EUR|M|0
Blinkist Premium|Go1|blinkist.com|17|89.99|USD|Y|14
Headway|Headway|makeheadway.com|17|89.99|USD|Y|0
Libro.fm|Libro.fm|libro.fm|17|14.99|USD|M|0
Kobo Plus|Rakuten Kobo|kobo.com|17|7.99|USD|M|0
Apple Books|Apple|books.apple.com|17|9.99|USD|M|14
Pocket Casts Plus|Automattic|pocketcasts.com|3|3.99|USD|M|0
Overcast Premium|Overcast Radio|overcast.fm|3|9.99|USD|Y|0
Calm|Calm|calm.com|8|69.99|USD|Y|0
Headspace|Headspace|headspace.com|8|69.99|USD|Y|0
Endel|Endel Sound|endel.io|8|59.99|USD|Y|0
Brain.fm|Brain.fm|brain.fm|8|69.99|USD|Y|30
Microsoft 365 Personal|Microsoft|microsoft.com|4|99.99|USD|Y|30
Microsoft 365 Family|Microsoft|microsoft.com|4|129.99|USD|Y|30
Microsoft 365 Business Basic|Microsoft|microsoft.com|4|6.00|USD|M|7
Microsoft 365 Business Standard|Microsoft|microsoft.com|4|12.50|USD|M|7
Google One 100 GB|Google|one.google.com|5|1.99|USD|M|0
Google One 2 TB|Google|one.google.com|5|9.99|USD|M|0
Google One AI Premium|Google|one.google.com|10|19.99|USD|M|0
Google Workspace Business Starter|Google|workspace.google.com|4|7.00|USD|M|0
Google Workspace Business Standard|Google|workspace.google.com|4|14.00|USD|M|0
iCloud+ 50 GB|Apple|icloud.com|5|0.99|USD|M|14
iCloud+ 200 GB|Apple|icloud.com|5|2.99|USD|M|14
iCloud+ 2 TB|Apple|icloud.com|5|9.99|USD|M|14
Dropbox Plus|Dropbox|dropbox.com|5|11.99|USD|M|0
Dropbox Essentials|Dropbox|dropbox.com|5|19.99|USD|M|0
Box Personal Pro|Box|box.com|5|10.00|USD|M|0
pCloud Premium|pCloud|pcloud.com|5|49.99|USD|Y|10
Sync.com Solo Basic|Sync.com|sync.com|5|96.00|USD|Y|30
MEGA Pro I|MEGA|mega.io|5|10.99|EUR|M|0
Proton Drive Plus|Proton|proton.me|5|4.99|USD|M|30
Backblaze Personal Backup|Backblaze|backblaze.com|5|99.00|USD|Y|0
Backblaze B2|Backblaze|backblaze.com|5|6.00|USD|M|0
IDrive Personal|IDrive|idrive.com|5|99.50|USD|Y|0
Carbonite Safe Basic|OpenText|carbonite.com|5|71.99|USD|Y|30
Acronis True Image Essentials|Acronis|acronis.com|5|49.99|USD|Y|30
Evernote Personal|Bending Spoons|evernote.com|4|14.99|USD|M|0
Notion Plus|Notion Labs|notion.so|4|12.00|USD|M|0
Obsidian Sync|Obsidian|obsidian.md|4|4.00|USD|M|0
Todoist Pro|Doist|todoist.com|4|48.00|USD|Y|30
TickTick Premium|Appest|ticktick.com|4|35.99|USD|Y|0
Trello Standard|Atlassian|trello.com|4|5.00|USD|M|0
Asana Starter|Asana|asana.com|4|10.99|USD|M|0
Monday.com Basic|monday.com|monday.com|4|9.00|USD|M|0
ClickUp Unlimited|ClickUp|clickup.com|4|7.00|USD|M|30
Airtable Team|Airtable|airtable.com|4|20.00|USD|M|0
Coda Pro|Coda|coda.io|4|10.00|USD|M|0
Craft Plus|Craft Docs|craft.do|4|5.00|USD|M|0
Bear Pro|Shiny Frog|bear.app|4|2.99|USD|M|0
Ulysses|Ulysses|ulysses.app|4|5.99|USD|M|0
Grammarly Pro|Grammarly|grammarly.com|4|12.00|USD|M|0
LanguageTool Premium|LanguageTool|languagetool.org|4|59.00|EUR|Y|14
ProWritingAid Premium|ProWritingAid|prowritingaid.com|4|10.00|USD|M|14
Hemingway Editor Plus|Hemingway|hemingwayapp.com|4|10.00|USD|M|0
DeepL Pro Starter|DeepL|deepl.com|4|8.74|USD|M|0
1Password Individual|AgileBits|1password.com|6|2.99|USD|M|0
1Password Families|AgileBits|1password.com|6|4.99|USD|M|0
Bitwarden Premium|Bitwarden|bitwarden.com|6|10.00|USD|Y|30
Bitwarden Families|Bitwarden|bitwarden.com|6|40.00|USD|Y|30
Dashlane Premium|Dashlane|dashlane.com|6|4.99|USD|M|30
LastPass Premium|LastPass|lastpass.com|6|3.00|USD|M|0
Keeper Unlimited|Keeper Security|keepersecurity.com|6|3.33|USD|M|0
NordPass Premium|Nord Security|nordpass.com|6|1.99|USD|M|30
NordVPN Standard|Nord Security|nordvpn.com|6|12.99|USD|M|30
ExpressVPN|Kape Technologies|expressvpn.com|6|12.95|USD|M|30
Surfshark Starter|Surfshark|surfshark.com|6|15.45|USD|M|30
Proton VPN Plus|Proton|protonvpn.com|6|9.99|USD|M|30
Mullvad VPN|Mullvad|mullvad.net|6|5.00|EUR|M|0
Private Internet Access|Kape Technologies|privateinternetaccess.com|6|11.95|USD|M|30
CyberGhost VPN|Kape Technologies|cyberghostvpn.com|6|12.99|USD|M|14
IVPN Standard|IVPN|ivpn.net|6|6.00|USD|M|30
Windscribe Pro|Windscribe|windscribe.com|6|9.00|USD|M|3
Mozilla VPN|Mozilla|mozilla.org|6|9.99|USD|M|30
Tailscale Personal Plus|Tailscale|tailscale.com|6|5.00|USD|M|0
Proton Mail Plus|Proton|proton.me|14|4.99|USD|M|30
Proton Unlimited|Proton|proton.me|6|12.99|USD|M|30
Tuta Revolutionary|Tutao|tuta.com|14|3.00|EUR|M|0
Fastmail Individual|Fastmail|fastmail.com|14|5.00|USD|M|30
Hey|37signals|hey.com|14|99.00|USD|Y|0
Zoho Mail Lite|Zoho|zoho.com|14|1.00|USD|M|45
Norton 360 Deluxe|Gen Digital|norton.com|6|49.99|USD|Y|60
McAfee Total Protection|McAfee|mcafee.com|6|39.99|USD|Y|30
Bitdefender Total Security|Bitdefender|bitdefender.com|6|49.99|USD|Y|30
Kaspersky Standard|Kaspersky|kaspersky.com|6|29.99|USD|Y|30
ESET Home Security Essential|ESET|eset.com|6|49.99|USD|Y|30
Malwarebytes Premium|Malwarebytes|malwarebytes.com|6|44.99|USD|Y|60
Avast Premium Security|Gen Digital|avast.com|6|69.99|USD|Y|30
Aura Individual|Aura|aura.com|6|15.00|USD|M|60
Incogni|Surfshark|incogni.com|6|15.98|USD|M|30
DeleteMe|Abine|joindeleteme.com|6|129.00|USD|Y|0
The New York Times All Access|The New York Times|nytimes.com|7|25.00|USD|M|0
The Washington Post|The Washington Post|washingtonpost.com|7|12.00|USD|M|0
The Wall Street Journal|Dow Jones|wsj.com|7|38.99|USD|M|0
The Economist Digital|The Economist Group|economist.com|7|199.00|USD|Y|0
Financial Times Standard Digital|Financial Times|ft.com|7|45.00|USD|M|0
Bloomberg Digital|Bloomberg|bloomberg.com|7|34.99|USD|M|0
The Atlantic Digital|The Atlantic|theatlantic.com|7|79.99|USD|Y|0
The New Yorker|Condé Nast|newyorker.com|7|99.99|USD|Y|0
Wired|Condé Nast|wired.com|7|29.99|USD|Y|0
The Guardian Digital Plus|Guardian Media Group|theguardian.com|7|15.00|GBP|M|14
The Times Digital|News UK|thetimes.com|7|26.00|GBP|M|14
Le Monde Numérique|Groupe Le Monde|lemonde.fr|7|12.99|EUR|M|14
Der Spiegel Plus|Spiegel-Verlag|spiegel.de|7|21.99|EUR|M|14
Die Zeit Digital|Zeitverlag|zeit.de|7|22.00|EUR|M|14
Süddeutsche Zeitung Plus|Süddeutscher Verlag|sueddeutsche.de|7|14.99|EUR|M|14
Apple News+|Apple|apple.com|7|12.99|USD|M|14
Readly|Readly International|readly.com|7|9.99|EUR|M|0
Medium Membership|A Medium Corporation|medium.com|7|5.00|USD|M|0
Substack Pro|Substack|substack.com|7|8.00|USD|M|0
The Athletic|The New York Times|theathletic.com|7|9.99|USD|M|0
Bloomberg Businessweek|Bloomberg|bloomberg.com|7|49.99|USD|Y|0
Reuters Digital|Thomson Reuters|reuters.com|7|34.99|USD|M|0
Los Angeles Times|Los Angeles Times|latimes.com|7|7.99|USD|M|0
Axios Pro|Cox Enterprises|axios.com|7|599.00|USD|Y|0
Ground News Pro|Snapwise|ground.news|7|9.99|USD|Y|30
Peloton All-Access|Peloton|onepeloton.com|8|44.00|USD|M|0
Peloton App One|Peloton|onepeloton.com|8|12.99|USD|M|0
Strava Subscription|Strava|strava.com|8|11.99|USD|M|0
Zwift|Zwift|zwift.com|8|19.99|USD|M|0
Fitbit Premium|Google|fitbit.com|8|9.99|USD|M|0
WHOOP One|WHOOP|whoop.com|8|199.00|USD|Y|30
Oura Membership|Oura Health|ouraring.com|8|5.99|USD|M|0
Apple Fitness+|Apple|apple.com|8|9.99|USD|M|14
MyFitnessPal Premium|MyFitnessPal|myfitnesspal.com|8|19.99|USD|M|0
Noom|Noom|noom.com|8|70.00|USD|M|0
WeightWatchers|WW International|weightwatchers.com|8|23.00|USD|M|0
Lose It! Premium|FitNow|loseit.com|8|39.99|USD|Y|0
Cronometer Gold|Cronometer|cronometer.com|8|54.99|USD|Y|0
Nike Training Club Premium|Nike|nike.com|8|14.99|USD|M|0
Les Mills+|Les Mills|lesmills.com|8|14.99|USD|M|0
Alo Moves|Alo Yoga|alomoves.com|8|12.99|USD|M|0
Glo|Glo Digital|glo.com|8|24.00|USD|M|0
Down Dog|Yoga Buddhi|downdogapp.com|8|9.99|USD|M|0
Ladder|Ladder|joinladder.com|8|29.99|USD|M|0
Future Fitness|Future Research|future.co|8|199.00|USD|M|0
Centr|Centr|centr.com|8|29.99|USD|M|0
Freeletics Coach|Freeletics|freeletics.com|8|99.99|EUR|Y|14
Runna|Runna|runna.com|8|17.99|USD|M|0
Garmin Connect+|Garmin|garmin.com|8|6.99|USD|M|0
Flo Premium|Flo Health|flo.health|8|49.99|USD|Y|0
BetterHelp|Teladoc Health|betterhelp.com|8|280.00|USD|M|0
Talkspace|Talkspace|talkspace.com|8|276.00|USD|M|0
Sleep Cycle Premium|Sleep Cycle|sleepcycle.com|8|39.99|USD|Y|0
Planet Fitness Classic|Planet Fitness|planetfitness.com|8|15.00|USD|M|0
Anytime Fitness|Anytime Fitness|anytimefitness.com|8|45.00|USD|M|0
Duolingo Max|Duolingo|duolingo.com|9|29.99|USD|M|0
Super Duolingo|Duolingo|duolingo.com|9|12.99|USD|M|0
Babbel|Babbel|babbel.com|9|13.95|USD|M|20
Rosetta Stone|IXL Learning|rosettastone.com|9|15.99|USD|M|30
Busuu Premium|Chegg|busuu.com|9|13.99|USD|M|14
Memrise Pro|Memrise|memrise.com|9|14.99|USD|M|0
Coursera Plus|Coursera|coursera.org|9|59.00|USD|M|14
edX Professional Certificates|2U|edx.org|9|49.00|USD|M|14
Udemy Personal Plan|Udemy|udemy.com|9|20.00|USD|M|0
LinkedIn Learning|Microsoft|linkedin.com|9|39.99|USD|M|0
LinkedIn Premium Career|Microsoft|linkedin.com|14|29.99|USD|M|0
Skillshare|Skillshare|skillshare.com|9|168.00|USD|Y|14
MasterClass Individual|MasterClass|masterclass.com|9|120.00|USD|Y|30
Brilliant Premium|Brilliant Worldwide|brilliant.org|9|24.99|USD|M|0
Pluralsight Standard|Pluralsight|pluralsight.com|9|29.00|USD|M|0
DataCamp Premium|DataCamp|datacamp.com|9|25.00|USD|M|14
Codecademy Plus|Skillsoft|codecademy.com|9|34.99|USD|M|14
Frontend Masters|Frontend Masters|frontendmasters.com|9|39.00|USD|M|0
Educative|Educative|educative.io|9|59.00|USD|M|7
O'Reilly Learning|O'Reilly Media|oreilly.com|9|49.00|USD|M|0
Treehouse|Treehouse|teamtreehouse.com|9|25.00|USD|M|0
Chegg Study|Chegg|chegg.com|9|15.95|USD|M|0
Quizlet Plus|Quizlet|quizlet.com|9|35.99|USD|Y|0
Scribd|Scribd|scribd.com|17|11.99|USD|M|0
Wondrium|The Teaching Company|wondrium.com|9|20.00|USD|M|0
ABCmouse|Age of Learning|abcmouse.com|9|12.99|USD|M|0
Epic Kids|Epic Creations|getepic.com|9|11.99|USD|M|0
ChatGPT Plus|OpenAI|openai.com|10|20.00|USD|M|0
ChatGPT Pro|OpenAI|openai.com|10|200.00|USD|M|0
Claude Pro|Anthropic|claude.ai|10|20.00|USD|M|0
Claude Max|Anthropic|claude.ai|10|100.00|USD|M|0
Gemini Advanced|Google|gemini.google.com|10|19.99|USD|M|0
Microsoft Copilot Pro|Microsoft|microsoft.com|10|20.00|USD|M|0
Perplexity Pro|Perplexity AI|perplexity.ai|10|20.00|USD|M|0
Midjourney Basic|Midjourney|midjourney.com|10|10.00|USD|M|0
Midjourney Standard|Midjourney|midjourney.com|10|30.00|USD|M|0
GitHub Copilot Pro|GitHub|github.com|10|10.00|USD|M|0
Cursor Pro|Anysphere|cursor.com|10|20.00|USD|M|0
Windsurf Pro|Windsurf|windsurf.com|10|15.00|USD|M|0
Poe Subscription|Quora|poe.com|10|19.99|USD|M|0
Character.AI c.ai+|Character Technologies|character.ai|10|9.99|USD|M|0
Jasper Creator|Jasper AI|jasper.ai|10|49.00|USD|M|0
Copy.ai Pro|Copy.ai|copy.ai|10|49.00|USD|M|0
ElevenLabs Starter|ElevenLabs|elevenlabs.io|10|5.00|USD|M|0
Runway Standard|Runway AI|runwayml.com|10|15.00|USD|M|0
Suno Pro|Suno|suno.com|10|10.00|USD|M|0
Otter.ai Pro|Otter.ai|otter.ai|10|16.99|USD|M|0
Descript Creator|Descript|descript.com|10|24.00|USD|M|0
Leonardo.Ai Apprentice|Canva|leonardo.ai|10|12.00|USD|M|0
Mistral Le Chat Pro|Mistral AI|mistral.ai|10|14.99|USD|M|0
Grok SuperGrok|xAI|x.ai|10|30.00|USD|M|0
Notion AI|Notion Labs|notion.so|10|10.00|USD|M|0
Raycast Pro|Raycast|raycast.com|10|8.00|USD|M|0
Xbox Game Pass Ultimate|Microsoft|xbox.com|11|19.99|USD|M|0
PC Game Pass|Microsoft|xbox.com|11|11.99|USD|M|0
PlayStation Plus Essential|Sony Interactive Entertainment|playstation.com|11|79.99|USD|Y|14
PlayStation Plus Extra|Sony Interactive Entertainment|playstation.com|11|134.99|USD|Y|14
PlayStation Plus Premium|Sony Interactive Entertainment|playstation.com|11|159.99|USD|Y|14
Nintendo Switch Online|Nintendo|nintendo.com|11|19.99|USD|Y|0
Nintendo Switch Online + Expansion Pack|Nintendo|nintendo.com|11|49.99|USD|Y|0
EA Play|Electronic Arts|ea.com|11|5.99|USD|M|0
Ubisoft+ Premium|Ubisoft|ubisoft.com|11|17.99|USD|M|0
Apple Arcade|Apple|apple.com|11|6.99|USD|M|14
Google Play Pass|Google|play.google.com|11|5.99|USD|M|0
GeForce NOW Performance|NVIDIA|nvidia.com|11|9.99|USD|M|0
GeForce NOW Ultimate|NVIDIA|nvidia.com|11|19.99|USD|M|0
Humble Choice|Humble Bundle|humblebundle.com|11|11.99|USD|M|0
World of Warcraft|Blizzard Entertainment|worldofwarcraft.blizzard.com|11|14.99|USD|M|0
Final Fantasy XIV|Square Enix|finalfantasyxiv.com|11|12.99|USD|M|0
Roblox Premium|Roblox|roblox.com|11|9.99|USD|M|0
Fortnite Crew|Epic Games|fortnite.com|11|11.99|USD|M|0
Discord Nitro|Discord|discord.com|14|9.99|USD|M|0
Discord Nitro Basic|Discord|discord.com|14|2.99|USD|M|0
Chess.com Gold|Chess.com|chess.com|11|5.00|USD|M|0
Minecraft Realms Plus|Mojang Studios|minecraft.net|11|7.99|USD|M|0
Twitch Subscription Tier 1|Amazon|twitch.tv|14|5.99|USD|M|0
GitHub Pro|GitHub|github.com|12|4.00|USD|M|0
GitHub Team|GitHub|github.com|12|4.00|USD|M|0
GitLab Premium|GitLab|gitlab.com|12|29.00|USD|M|0
Bitbucket Standard|Atlassian|bitbucket.org|12|3.30|USD|M|0
JetBrains All Products Pack|JetBrains|jetbrains.com|12|289.00|USD|Y|30
IntelliJ IDEA Ultimate|JetBrains|jetbrains.com|12|169.00|USD|Y|30
PyCharm Professional|JetBrains|jetbrains.com|12|99.00|USD|Y|30
WebStorm|JetBrains|jetbrains.com|12|69.00|USD|Y|30
Docker Pro|Docker|docker.com|12|9.00|USD|M|0
Postman Basic|Postman|postman.com|12|14.00|USD|M|0
Sentry Team|Functional Software|sentry.io|12|26.00|USD|M|0
Datadog Pro|Datadog|datadoghq.com|12|15.00|USD|M|0
New Relic Standard|New Relic|newrelic.com|12|10.00|USD|M|0
Vercel Pro|Vercel|vercel.com|18|20.00|USD|M|0
Netlify Pro|Netlify|netlify.com|18|19.00|USD|M|0
Heroku Basic Dyno|Salesforce|heroku.com|18|7.00|USD|M|0
Render Professional|Render|render.com|18|19.00|USD|M|0
Fly.io Launch|Fly.io|fly.io|18|29.00|USD|M|0
Railway Hobby|Railway|railway.com|18|5.00|USD|M|0
DigitalOcean Droplet Basic|DigitalOcean|digitalocean.com|18|6.00|USD|M|0
Linode Shared CPU|Akamai|linode.com|18|5.00|USD|M|0
Hetzner Cloud CX22|Hetzner|hetzner.com|18|4.59|EUR|M|0
Vultr Cloud Compute|Vultr|vultr.com|18|5.00|USD|M|0
AWS Lightsail|Amazon Web Services|aws.amazon.com|18|5.00|USD|M|0
Cloudflare Pro|Cloudflare|cloudflare.com|18|25.00|USD|M|0
Cloudflare Workers Paid|Cloudflare|cloudflare.com|12|5.00|USD|M|0
Supabase Pro|Supabase|supabase.com|12|25.00|USD|M|0
MongoDB Atlas Flex|MongoDB|mongodb.com|12|8.00|USD|M|0
PlanetScale Scaler Pro|PlanetScale|planetscale.com|12|39.00|USD|M|0
Neon Launch|Neon|neon.tech|12|19.00|USD|M|0
Namecheap Domain .com|Namecheap|namecheap.com|18|14.98|USD|Y|5
GoDaddy Domain .com|GoDaddy|godaddy.com|18|22.99|USD|Y|5
Porkbun Domain .com|Porkbun|porkbun.com|18|11.08|USD|Y|5
Squarespace Personal|Squarespace|squarespace.com|18|25.00|USD|M|14
Wix Light|Wix.com|wix.com|18|17.00|USD|M|14
WordPress.com Personal|Automattic|wordpress.com|18|9.00|USD|M|14
Ghost Starter|Ghost Foundation|ghost.org|18|15.00|USD|M|0
Shopify Basic|Shopify|shopify.com|18|39.00|USD|M|0
Webflow Basic|Webflow|webflow.com|18|18.00|USD|M|0
Bluehost Basic|Newfold Digital|bluehost.com|18|2.95|USD|M|30
Hostinger Premium|Hostinger|hostinger.com|18|2.99|USD|M|30
SiteGround StartUp|SiteGround|siteground.com|18|2.99|USD|M|30
Adobe Creative Cloud All Apps|Adobe|adobe.com|13|59.99|USD|M|14
Adobe Photoshop|Adobe|adobe.com|13|22.99|USD|M|14
Adobe Lightroom|Adobe|adobe.com|13|11.99|USD|M|14
Adobe Photography Plan|Adobe|adobe.com|13|19.99|USD|M|14
Adobe Acrobat Pro|Adobe|adobe.com|4|19.99|USD|M|14
Adobe Premiere Pro|Adobe|adobe.com|13|22.99|USD|M|14
Adobe Illustrator|Adobe|adobe.com|13|22.99|USD|M|14
Adobe Express Premium|Adobe|adobe.com|13|9.99|USD|M|14
Canva Pro|Canva|canva.com|13|15.00|USD|M|0
Figma Professional|Figma|figma.com|13|16.00|USD|M|0
Sketch Standard|Sketch|sketch.com|13|10.00|USD|M|0
Capture One Pro|Capture One|captureone.com|13|24.00|USD|M|14
Final Cut Pro for iPad|Apple|apple.com|13|4.99|USD|M|14
Logic Pro for iPad|Apple|apple.com|13|4.99|USD|M|14
Splice Sounds|Splice|splice.com|13|12.99|USD|M|0
Envato Elements|Envato|envato.com|13|16.50|USD|M|0
Shutterstock|Shutterstock|shutterstock.com|13|29.00|USD|M|0
Adobe Stock|Adobe|stock.adobe.com|13|29.99|USD|M|14
Unsplash+|Getty Images|unsplash.com|13|8.00|USD|M|0
Epidemic Sound Personal|Epidemic Sound|epidemicsound.com|13|9.99|USD|M|0
Artlist Social|Artlist|artlist.io|13|9.99|USD|M|0
Vimeo Starter|Vimeo|vimeo.com|13|12.00|USD|M|30
Loom Business|Atlassian|loom.com|4|15.00|USD|M|0
Camtasia|TechSmith|techsmith.com|13|179.88|USD|Y|30
Snagit|TechSmith|techsmith.com|13|39.00|USD|Y|30
CleanShot Cloud Pro|MTW|cleanshot.com|13|8.00|USD|M|0
Setapp|MacPaw|setapp.com|4|9.99|USD|M|0
CleanMyMac|MacPaw|macpaw.com|4|39.95|USD|Y|30
Parallels Desktop Standard|Alludo|parallels.com|4|99.99|USD|Y|30
Fantastical Premium|Flexibits|flexibits.com|4|4.75|USD|M|0
Calendly Standard|Calendly|calendly.com|4|10.00|USD|M|0
Zoom Pro|Zoom Video Communications|zoom.us|14|13.33|USD|M|0
Slack Pro|Salesforce|slack.com|14|7.25|USD|M|0
Microsoft Teams Essentials|Microsoft|microsoft.com|14|4.00|USD|M|7
Google Voice Starter|Google|voice.google.com|14|10.00|USD|M|0
Telegram Premium|Telegram|telegram.org|14|4.99|USD|M|0
X Premium|X Corp|x.com|14|8.00|USD|M|0
Meta Verified|Meta|meta.com|14|14.99|USD|M|0
Snapchat+|Snap|snapchat.com|14|3.99|USD|M|0
Reddit Premium|Reddit|reddit.com|14|5.99|USD|M|0
Patreon Membership|Patreon|patreon.com|14|5.00|USD|M|0
Mint Mobile Unlimited|T-Mobile|mintmobile.com|20|30.00|USD|M|7
Google Fi Simply Unlimited|Google|fi.google.com|20|50.00|USD|M|0
Visible|Verizon|visible.com|20|25.00|USD|M|0
Airalo eSIM|Airalo|airalo.com|20|4.50|USD|M|0
YNAB|You Need A Budget|ynab.com|15|109.00|USD|Y|0
Monarch Money|Monarch Money|monarchmoney.com|15|99.99|USD|Y|0
Copilot Money|Copilot|copilot.money|15|95.00|USD|Y|0
Quicken Simplifi|Quicken|quicken.com|15|47.88|USD|Y|30
Quicken Classic Deluxe|Quicken|quicken.com|15|71.88|USD|Y|30
QuickBooks Online Simple Start|Intuit|quickbooks.intuit.com|15|35.00|USD|M|0
FreshBooks Lite|FreshBooks|freshbooks.com|15|21.00|USD|M|0
Xero Early|Xero|xero.com|15|20.00|USD|M|0
Rocket Money Premium|Rocket Companies|rocketmoney.com|15|6.00|USD|M|0
TurboTax Live Assisted|Intuit|turbotax.intuit.com|15|89.00|USD|Y|0
Morningstar Investor|Morningstar|morningstar.com|15|249.00|USD|Y|0
Seeking Alpha Premium|Seeking Alpha|seekingalpha.com|15|299.00|USD|Y|30
TradingView Essential|TradingView|tradingview.com|15|14.95|USD|M|14
Robinhood Gold|Robinhood|robinhood.com|15|5.00|USD|M|0
Revolut Premium|Revolut|revolut.com|15|9.99|EUR|M|14
Monzo Perks|Monzo|monzo.com|15|7.00|GBP|M|14
N26 Smart|N26|n26.com|15|4.90|EUR|M|14
Walmart+|Walmart|walmart.com|16|12.95|USD|M|0
Costco Gold Star|Costco|costco.com|16|65.00|USD|Y|0
Sam's Club Membership|Walmart|samsclub.com|16|50.00|USD|Y|0
Target Circle 360|Target|target.com|16|10.99|USD|M|0
DashPass|DoorDash|doordash.com|16|9.99|USD|M|0
Uber One|Uber|uber.com|16|9.99|USD|M|0
Instacart+|Maplebear|instacart.com|16|9.99|USD|M|0
Grubhub+|Wonder Group|grubhub.com|16|9.99|USD|M|0
HelloFresh|HelloFresh|hellofresh.com|16|59.94|USD|W|0
Blue Apron|Wonder Group|blueapron.com|16|59.94|USD|W|0
Factor|HelloFresh|factor75.com|16|71.94|USD|W|0
Home Chef|Kroger|homechef.com|16|59.94|USD|W|0
Dollar Shave Club|Dollar Shave Club|dollarshaveclub.com|16|10.00|USD|M|0
BarkBox|BARK|barkbox.com|16|35.00|USD|M|0
Ipsy Glam Bag|Ipsy|ipsy.com|16|14.00|USD|M|0
Birchbox|Birchbox|birchbox.com|16|15.00|USD|M|0
Stitch Fix|Stitch Fix|stitchfix.com|16|20.00|USD|M|0
Rent the Runway|Rent the Runway|renttherunway.com|16|94.00|USD|M|0
Book of the Month|Book of the Month|bookofthemonth.com|17|17.99|USD|M|0
Amazon Kids+|Amazon|amazon.com|9|5.99|USD|M|0
Tinder Gold|Match Group|tinder.com|19|24.99|USD|M|0
Tinder Platinum|Match Group|tinder.com|19|29.99|USD|M|0
Bumble Premium|Bumble|bumble.com|19|39.99|USD|M|0
Hinge+|Match Group|hinge.co|19|32.99|USD|M|0
Match.com Standard|Match Group|match.com|19|44.99|USD|M|3
OkCupid Premium|Match Group|okcupid.com|19|34.99|USD|M|0
eharmony Premium Light|ParshipMeet Group|eharmony.com|19|65.90|USD|M|14
Grindr XTRA|Grindr|grindr.com|19|19.99|USD|M|0
Parship Premium|ParshipMeet Group|parship.com|19|74.90|EUR|M|14
Lyft Pink|Lyft|lyft.com|20|9.99|USD|M|0
Lime Prime|Lime|li.me|20|5.99|USD|M|0
Citi Bike Annual Membership|Lyft|citibikenyc.com|20|219.99|USD|Y|0
Zipcar Monthly|Avis Budget Group|zipcar.com|20|9.00|USD|M|0
Tesla Premium Connectivity|Tesla|tesla.com|20|9.99|USD|M|0
Going Premium|Going|going.com|20|49.00|USD|Y|0
Priority Pass Standard|Collinson|prioritypass.com|20|99.00|USD|Y|0
TripIt Pro|SAP Concur|tripit.com|20|49.00|USD|Y|0
Flighty Pro|Flighty|flighty.com|20|59.99|USD|Y|0
Clear Plus|Clear Secure|clearme.com|20|199.00|USD|Y|0
AAA Classic|American Automobile Association|aaa.com|20|64.00|USD|Y|0
Ring Protect Basic|Amazon|ring.com|6|4.99|USD|M|0
Nest Aware|Google|store.google.com|6|8.00|USD|M|0
Arlo Secure|Arlo|arlo.com|6|7.99|USD|M|0
SimpliSafe Core Monitoring|SimpliSafe|simplisafe.com|6|21.99|USD|M|60
ADT+ Monitoring|ADT|adt.com|6|24.99|USD|M|0
Life360 Gold|Life360|life360.com|6|14.99|USD|M|0
Ancestry World Explorer|Ancestry|ancestry.com|1|39.99|USD|M|0
23andMe+ Premium|23andMe|23andme.com|8|69.00|USD|Y|0
Todoist Business|Doist|todoist.com|4|6.00|USD|M|30
Zapier Professional|Zapier|zapier.com|4|29.99|USD|M|0
IFTTT Pro|IFTTT|ifttt.com|4|2.92|USD|M|0
Make Core|Celonis|make.com|4|10.59|USD|M|0
Dropbox Sign Essentials|Dropbox|sign.dropbox.com|4|20.00|USD|M|0
DocuSign Personal|Docusign|docusign.com|4|15.00|USD|M|0
Mailchimp Essentials|Intuit|mailchimp.com|14|13.00|USD|M|0
ConvertKit Creator|Kit|kit.com|14|29.00|USD|M|30
Buffer Essentials|Buffer|buffer.com|14|6.00|USD|M|0
Hootsuite Professional|Hootsuite|hootsuite.com|14|99.00|USD|M|0
Linktree Pro|Linktree|linktr.ee|14|9.00|USD|M|0
Typeform Basic|Typeform|typeform.com|4|29.00|USD|M|0
SurveyMonkey Standard|SurveyMonkey|surveymonkey.com|4|39.00|USD|M|0
Miro Starter|Miro|miro.com|4|10.00|USD|M|0
Lucid Individual|Lucid Software|lucid.co|4|9.00|USD|M|0
Smallpdf Pro|Smallpdf|smallpdf.com|4|12.00|USD|M|14
PDF Expert Premium|Readdle|pdfexpert.com|4|79.99|USD|Y|0
Spark Premium|Readdle|sparkmailapp.com|14|4.99|USD|M|0
Superhuman Starter|Superhuman|superhuman.com|14|30.00|USD|M|0
Readwise Full|Readwise|readwise.io|4|9.99|USD|M|30
Instapaper Premium|Instant Paper|instapaper.com|4|5.99|USD|M|0
Feedly Pro|Feedly|feedly.com|7|8.25|USD|M|0
Inoreader Pro|Innologica|inoreader.com|7|9.99|USD|M|0
Kagi Professional|Kagi|kagi.com|4|10.00|USD|M|0
Jottacloud Personal|Jotta|jottacloud.com|5|9.99|EUR|M|0
Filen Pro I|Filen Cloud|filen.io|5|1.99|EUR|M|14
Synology C2 Storage|Synology|c2.synology.com|5|7.99|USD|Y|0
Setapp Power User|MacPaw|setapp.com|4|14.99|USD|M|0
`;

const CYCLES = { W: 2, M: 3, Y: 4 } as const;

export const SEED_PRODUCTS: readonly SeedProduct[] = CATALOGUE.trim()
  .split('\n')
  .map((line) => {
    const [name, brand, domain, categoryId, price, currency, cycle, refundDays] = line.split('|');
    return {
      name,
      brand,
      domain,
      categoryId: Number(categoryId),
      price,
      currency,
      cycle: CYCLES[cycle as keyof typeof CYCLES],
      refundDays: Number(refundDays),
    };
  });
