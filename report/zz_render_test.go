package report
import ("os";"testing")
func TestRenderTmp(t *testing.T){
	d := fixtureDoc()
	f,_ := os.Create("/tmp/rep.html"); defer f.Close()
	if err := WriteHTML(f, d, HTMLOptions{}); err != nil { t.Fatal(err) }
	g,_ := os.Create("/tmp/rep.json"); defer g.Close(); d.WriteJSON(g)
	Text(os.Stdout, d, TextOptions{Verbose:true})
}
