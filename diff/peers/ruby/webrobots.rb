# reptest peer for WebRobots (Debian ruby-webrobots), speaking the reptest/1
# protocol: JSON lines on standard input and output (docs/FORMAT.md §3 in
# the reptest repository).
#
# WebRobots fetches robots.txt through its :http_get hook, which returns the
# body on success, "" when there is no file, and nil on failure. The hook
# here answers from the request, so nothing touches the network: a status
# request maps 2xx to the body, 4xx to "" and anything else to nil, the same
# classification as the library's own fetcher (which follows redirects
# itself; a status request never carries one that can be followed).
# Crawl-delay sleeping is switched off. When the library cannot parse the
# file it ignores the whole file and records a parse error; the peer reports
# that as reject.
require 'json'

begin
  require 'webrobots'
rescue LoadError => e
  warn "webrobots peer: #{e.message} (install Debian package ruby-webrobots)"
  exit 3
end

$stdout.binmode
$stdout.sync = true

CAPABILITIES = %w[parse status].freeze
# RUNTIME names the interpreter for the hello, so that results say which
# Ruby ran the library.
RUNTIME = "#{RUBY_ENGINE == 'ruby' ? 'Ruby' : RUBY_ENGINE} #{RUBY_VERSION}".freeze

# The differential engine asks many questions of one body in a row, so the
# last robot (which caches the parsed file per site) is kept.
$last = { key: nil, bot: nil }

def check(robots, agent, url, status)
  body =
    if status.nil? || (200..299).cover?(status)
      robots
    elsif (400..499).cover?(status)
      ''
    end
  key = [robots, agent, status]
  if $last[:key] != key
    $last = { key: key, bot: WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore) }
  end
  bot = $last[:bot]
  allowed = bot.allowed?(url)
  return 'reject' if bot.error(url).is_a?(WebRobots::ParseError)

  allowed ? 'allow' : 'disallow'
end

def answer(msg)
  id = msg['id'] || ''
  raise 'this peer does not fetch (no capability fetch)' if msg['robots_url']

  status = msg['status']
  status = nil if status == 0
  robots = (msg['robots_b64'] || '').unpack1('m')
  { 'id' => id, 'verdict' => check(robots, msg['agent'], msg['url'], status) }
rescue StandardError => e
  { 'id' => id, 'error' => "#{e.class}: #{e.message}" }
end

$stdin.binmode
$stdin.each_line do |line|
  reply =
    begin
      msg = JSON.parse(line)
      raise JSON::ParserError, 'not a JSON object' unless msg.is_a?(Hash)

      if msg.key?('hello')
        { 'name' => 'webrobots', 'version' => Webrobots::VERSION, 'runtime' => RUNTIME,
          'capabilities' => CAPABILITIES }
      else
        answer(msg)
      end
    rescue JSON::ParserError => e
      { 'error' => "not a request: #{e.message}" }
    end
  $stdout.write(JSON.generate(reply) + "\n")
end
