# reptest peer for WebRobots (Debian ruby-webrobots), speaking the reptest/1
# protocol: JSON lines on standard input and output (docs/FORMAT.md §3 in
# the reptest repository).
#
# WebRobots fetches robots.txt itself (through its :http_get hook) and
# answers allowed?(url) for the agent it was made for. Here nothing touches
# the network: the body comes from the request, and a status request maps
# 2xx to the body, 4xx to no file ("") and anything else to a failed fetch,
# the same classification as the library's own fetcher (which follows
# redirects itself; a status request never carries one that can be
# followed). Crawl-delay sleeping is off. When the library cannot parse the
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

# Robots keeps the parsed robots.txt of the current body. A WebRobots robot
# parses the file for its own agent, but the library's parse does not
# depend on the agent: the agent only picks which groups a parsed file
# keeps, and RobotsTxt#allow?(uri, agent) on a file parsed for no agent
# picks the same group (the first that names the agent, else the first
# "*" group). So the body is parsed once per site for every agent, and the
# questions are answered as WebRobots#allowed? answers them. The body is
# recognised by its base64 text and status, so an unchanged body is not
# decoded again.
class Robots
  # URLS splits URLs as WebRobots does (its private split_uri), so that a
  # URL the library refuses is refused here with its own error.
  URLS = WebRobots.new('reptest')

  def initialize
    @key = nil
    @sites = {}
  end

  # use makes the body b64 (the request's robots_b64), fetched with status
  # (nil for a parse request), the current body.
  def use(b64, status)
    key = [b64, status]
    return if @key == key

    @body = fetched(b64.unpack1('m'), status)
    @sites = {}
    @key = key
  end

  # check answers one question about the current body, as
  # WebRobots#allowed? and #error would.
  def check(agent, url)
    site, request_uri = URLS.send(:split_uri, url)
    txt = (@sites[site] ||= parse(site))
    allowed = request_uri == '/robots.txt' || txt.allow?(request_uri, agent)
    return 'reject' if txt.error.is_a?(WebRobots::ParseError)

    allowed ? 'allow' : 'disallow'
  end

  private

  # parse parses the current body for site and no agent, as the library's
  # fetch does for one (an unfetchable file is its "disallow all").
  def parse(site)
    return WebRobots::RobotsTxt.unfetchable(site, RuntimeError.new('robots.txt unfetchable')) if @body.nil?

    WebRobots::RobotsTxt::Parser.new(nil, nil).parse!(@body, site)
  end

  # fetched is what the library's fetch hook would answer for a body
  # fetched with status: the body, "" (no file) or nil (a failed fetch).
  def fetched(robots, status)
    if status.nil? || (200..299).cover?(status)
      robots
    elsif (400..499).cover?(status)
      ''
    end
  end
end

# one answers one question: a verdict, or the error of that question alone.
def one(robots, agent, url)
  { 'verdict' => robots.check(agent, url) }
rescue StandardError => e
  { 'error' => "#{e.class}: #{e.message}" }
end

def answer(robots, msg)
  id = msg['id'] || ''
  raise 'this peer does not fetch (no capability fetch)' if msg['robots_url']

  status = msg['status']
  status = nil if status == 0
  robots.use(msg['robots_b64'] || '', status)
  return { 'id' => id }.merge(one(robots, msg['agent'], msg['url'])) unless msg.key?('questions')

  # A batch: one body, many questions, answered in order.
  raise TypeError, 'questions is not a list' unless msg['questions'].is_a?(Array)

  answers = msg['questions'].map do |q|
    q.is_a?(Hash) ? one(robots, q['agent'], q['url']) : { 'error' => 'a question is not an object' }
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
