# A Ruby Mechanize crawler for reptest crawl: it starts at a URL and
# follows every link of the pages it fetches, breadth first, with
# Mechanize's robots.txt support on (agent.robots = true, which asks the
# webrobots library before each request).
#
#   ruby crawl.rb [-ua HEADER] [-ca PEM] [-depth N] [-max N] START-URL
require "mechanize"

ua, ca, depth, max = nil, nil, 5, 200
args = ARGV.dup
until args.empty? || !args.first.start_with?("-")
  case args.shift
  when "-ua" then ua = args.shift
  when "-ca" then ca = args.shift
  when "-depth" then depth = Integer(args.shift)
  when "-max" then max = Integer(args.shift)
  else abort "usage: crawl.rb [-ua HEADER] [-ca PEM] [-depth N] [-max N] START-URL"
  end
end
abort "usage: crawl.rb [-ua HEADER] [-ca PEM] [-depth N] [-max N] START-URL" unless args.size == 1

agent = Mechanize.new
agent.robots = true
agent.user_agent = ua if ua
agent.ca_file = ca if ca
agent.open_timeout = 5
agent.read_timeout = 5
agent.max_history = 1

queue = [[args.first, 0]]
seen = { args.first => true }
until queue.empty? || max <= 0
  url, level = queue.shift
  max -= 1
  begin
    page = agent.get(url)
  rescue Mechanize::RobotsDisallowedError
    next
  rescue StandardError => e
    warn "mechanize: #{url}: #{e.class}: #{e.message}"
    next
  end
  next unless page.is_a?(Mechanize::Page) && level < depth
  page.links.each do |link|
    begin
      u = page.uri.merge(link.href.to_s).to_s
    rescue StandardError
      next
    end
    next if seen[u]
    seen[u] = true
    queue << [u, level + 1]
  end
end
