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

CAPABILITIES = %w[parse status batch].freeze
# RUNTIME names the interpreter for the hello, so that results say which
# Ruby ran the library.
RUNTIME = "#{RUBY_ENGINE == 'ruby' ? 'Ruby' : RUBY_ENGINE} #{RUBY_VERSION}".freeze

# Robots keeps the robots of the current body. The differential engine asks
# many questions of one body in a row, by URL then agent, and a WebRobots
# robot parses the file for its own agent (once per site): one robot per
# agent is kept, so each agent's file is parsed once however the questions
# interleave. The body is recognised by its base64 text and status, so an
# unchanged body is not decoded again.
class Robots
  def initialize
    @key = nil
    @bots = {}
  end

  # bots returns the robots of the body b64 (the request's robots_b64)
  # fetched with status (nil for a parse request), by agent.
  def bots(b64, status)
    key = [b64, status]
    return @bots if @key == key

    body = fetched(b64.unpack1('m'), status)
    @bots = Hash.new do |bots, agent|
      bots[agent] = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)
    end
    @key = key
    @bots
  end

  private

  # fetched is what the :http_get hook answers for a body fetched with
  # status: the body, "" (no file) or nil (a failed fetch).
  def fetched(robots, status)
    if status.nil? || (200..299).cover?(status)
      robots
    elsif (400..499).cover?(status)
      ''
    end
  end
end

def check(bot, url)
  allowed = bot.allowed?(url)
  return 'reject' if bot.error(url).is_a?(WebRobots::ParseError)

  allowed ? 'allow' : 'disallow'
end

# one answers one question: a verdict, or the error of that question alone.
def one(bots, agent, url)
  { 'verdict' => check(bots[agent], url) }
rescue StandardError => e
  { 'error' => "#{e.class}: #{e.message}" }
end

def answer(robots, msg)
  id = msg['id'] || ''
  raise 'this peer does not fetch (no capability fetch)' if msg['robots_url']

  status = msg['status']
  status = nil if status == 0
  bots = robots.bots(msg['robots_b64'] || '', status)
  return { 'id' => id }.merge(one(bots, msg['agent'], msg['url'])) unless msg.key?('questions')

  # A batch: one body, many questions, answered in order.
  raise TypeError, 'questions is not a list' unless msg['questions'].is_a?(Array)

  answers = msg['questions'].map do |q|
    q.is_a?(Hash) ? one(bots, q['agent'], q['url']) : { 'error' => 'a question is not an object' }
  end
  { 'id' => id, 'answers' => answers }
rescue StandardError => e
  { 'id' => id, 'error' => "#{e.class}: #{e.message}" }
end

ROBOTS = Robots.new

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
        answer(ROBOTS, msg)
      end
    rescue JSON::ParserError => e
      { 'error' => "not a request: #{e.message}" }
    end
  $stdout.write(JSON.generate(reply) + "\n")
end
